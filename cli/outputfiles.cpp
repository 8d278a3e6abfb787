#include "outputfiles.h"

#include "fileidentity.h"

#include <unistd.h>

namespace crawl {

QString OutputFiles::conflict(const InputSource &input, const QString &csvPath, const QString &summaryPath) {
    const FileIdentity csv = FileIdentity::ofPath(csvPath, STDOUT_FILENO);
    if (input.kind != InputSource::Kind::Text) {
        const QString inputPath = input.kind == InputSource::Kind::Stdin ? QStringLiteral("-") : input.path;
        const FileIdentity in = FileIdentity::ofPath(inputPath, STDIN_FILENO);
        if (in.clashesWith(csv))
            return QStringLiteral("--output %1 is the input list; writing it would destroy the list")
                .arg(csvPath);
        if (!summaryPath.isEmpty() && in.clashesWith(FileIdentity::ofPath(summaryPath, STDOUT_FILENO)))
            return QStringLiteral("--summary-json %1 is the input list; writing it would destroy the list")
                .arg(summaryPath);
    }
    if (summaryPath.isEmpty())
        return {};
    if (summaryPath == QLatin1String("-") && csvPath == QLatin1String("-"))
        return QStringLiteral("--summary-json - and the CSV would both go to standard output; "
                              "give --output FILE or another --summary-json");
    if (FileIdentity::ofPath(summaryPath, STDOUT_FILENO).clashesWith(csv, true))
        return QStringLiteral("--summary-json %1 is where the CSV goes (--output); the summary would replace "
                              "or garble the results")
            .arg(summaryPath);
    return {};
}

bool OutputFiles::open(const InputSource &input, const QString &csvPath, const QString &summaryPath,
                       QString *error) {
    *error = conflict(input, csvPath, summaryPath);
    if (!error->isEmpty())
        return false;
    m_csv = std::make_unique<OutputFile>(csvPath);
    if (!m_csv->open(error))
        return false;
    if (!summaryPath.isEmpty()) {
        m_summary = std::make_unique<OutputFile>(summaryPath);
        if (!m_summary->open(error)) {
            m_csv->discard();
            return false;
        }
    }
    return true;
}

void OutputFiles::discard() {
    if (m_csv)
        m_csv->discard();
    if (m_summary)
        m_summary->discard();
}

} // namespace crawl

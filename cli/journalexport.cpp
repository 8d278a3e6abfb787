#include "journalexport.h"

#include "fileidentity.h"
#include "headlessrunner.h"
#include "output/csvwriter.h"
#include "outputfile.h"
#include "stderrline.h"
#include "store/crawlstore.h"

#include <unistd.h>

namespace crawl {

int exportJournal(const QString &storePath, const QString &csvPath) {
    const auto printError = [](const QString &what) {
        printStderrLine(QStringLiteral("crawlscope: ") + what);
    };
    const QString target = csvPath.isEmpty() ? QStringLiteral("-") : csvPath;
    if (FileIdentity::ofPath(storePath, STDIN_FILENO)
            .clashesWith(FileIdentity::ofPath(target, STDOUT_FILENO))) {
        printError(QStringLiteral("--output %1 is the crawl journal; writing it would destroy the crawl")
                       .arg(target));
        return ExitUsage;
    }
    StoreError error;
    StoreOptions options;
    options.readOnly = true;
    std::unique_ptr<CrawlStore> store = CrawlStore::open(storePath, &error, options);
    if (!store) {
        printError(error.message);
        return ExitUsage;
    }
    OutputFile csv(target);
    QString message;
    if (!csv.open(&message)) {
        printError(message);
        return ExitUsage;
    }
    ResultCsvWriter writer(csv.device());
    if (!writer.writeHeader()) {
        printError(QStringLiteral("cannot write %1: %2").arg(csv.displayName(), writer.errorString()));
        return ExitOutputFailed;
    }
    bool written = true;
    const bool read = store->exportRows([&](const CrawlResult &row) {
        written = writer.write(row);
        return written;
    });
    if (!read) {
        printError(store->lastError().message);
        csv.discard();
        return ExitOutputFailed;
    }
    if (!written || !writer.flush() || !writer.errorString().isEmpty()) {
        printError(QStringLiteral("cannot write %1: %2").arg(csv.displayName(), writer.errorString()));
        csv.discard();
        return ExitOutputFailed;
    }
    if (!csv.commit(&message)) {
        printError(message);
        return ExitOutputFailed;
    }
    if (!csv.isStdout())
        printError(QStringLiteral("%1 rows written to %2").arg(writer.rowsWritten()).arg(csv.path()));
    return ExitOk;
}

} // namespace crawl

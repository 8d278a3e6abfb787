#include "outputfile.h"

#include "fileidentity.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <cstdio>

namespace crawl {

OutputFile::OutputFile(QString path)
    : m_path(std::move(path)) {}

OutputFile::~OutputFile() = default; // QSaveFile's destructor removes an uncommitted temporary file

bool OutputFile::isStdout() const {
    return m_path == QLatin1String("-");
}

QString OutputFile::displayName() const {
    return isStdout() ? QStringLiteral("standard output") : m_path;
}

QIODevice *OutputFile::device() const {
    if (m_temporary)
        return m_temporary.get();
    return m_direct.get();
}

bool OutputFile::open(QString *error) {
    const auto fail = [&](const QString &why) {
        *error = QStringLiteral("cannot write %1: %2").arg(displayName(), why);
        m_temporary.reset();
        m_direct.reset();
        return false;
    };
    if (isStdout()) {
        m_direct = std::make_unique<QFile>();
        if (!m_direct->open(stdout, QIODevice::WriteOnly))
            return fail(m_direct->errorString());
        return true;
    }
    const FileIdentity id = FileIdentity::ofPath(m_path, -1);
    if (id.directory)
        return fail(QStringLiteral("it is a directory"));
    if (id.exists && !id.regular) {
        m_direct = std::make_unique<QFile>(m_path);
        if (!m_direct->open(QIODevice::WriteOnly))
            return fail(m_direct->errorString());
        return true;
    }
    // New or regular: through a temporary file next to the target (a symlink's target, not the link).
    const QString target = id.exists ? QFileInfo(m_path).canonicalFilePath() : m_path;
    m_temporary = std::make_unique<QSaveFile>(target);
    if (!m_temporary->open(QIODevice::WriteOnly))
        return fail(m_temporary->errorString());
    return true;
}

bool OutputFile::commit(QString *error) {
    if (m_temporary) {
        const bool ok = m_temporary->commit();
        if (!ok)
            *error = QStringLiteral("cannot write %1: %2").arg(displayName(), m_temporary->errorString());
        m_temporary.reset();
        return ok;
    }
    if (m_direct) {
        const bool ok = m_direct->flush();
        if (!ok)
            *error = QStringLiteral("cannot write %1: %2").arg(displayName(), m_direct->errorString());
        m_direct->close();
        m_direct.reset();
        return ok;
    }
    return true;
}

void OutputFile::discard() {
    m_temporary.reset();
    m_direct.reset();
}

} // namespace crawl

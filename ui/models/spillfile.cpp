#include "models/spillfile.h"

#include <QDir>
#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

namespace ui {

namespace {

QString errnoText() {
    return QString::fromLocal8Bit(std::strerror(errno));
}

} // namespace

SpillFile::SpillFile(int fd, qint64 size, const QString &what, const QString &folder)
    : m_fd(fd)
    , m_size(size)
    , m_what(what)
    , m_folder(folder) {}

SpillFile::~SpillFile() {
    ::close(m_fd);
}

std::unique_ptr<SpillFile> SpillFile::create(const QString &directory, const QString &what, QString *error) {
    if (!QDir().mkpath(directory)) {
        *error = QStringLiteral("cannot create %1").arg(directory);
        return nullptr;
    }
    const QByteArray dir = QFile::encodeName(directory);
    int fd = -1;
#ifdef O_TMPFILE
    fd = ::open(dir.constData(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
    if (fd < 0) {
        QByteArray name = dir + "/.crawlscope-" + what.toUtf8() + "-XXXXXX";
        fd = ::mkostemp(name.data(), O_CLOEXEC);
        if (fd < 0) {
            *error = QStringLiteral("cannot create a file in %1: %2").arg(directory, errnoText());
            return nullptr;
        }
        ::unlink(name.constData());
    }
    return std::unique_ptr<SpillFile>(new SpillFile(fd, 0, what, directory));
}

std::unique_ptr<SpillFile> SpillFile::duplicate() const {
    const int fd = ::fcntl(m_fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return nullptr;
    return std::unique_ptr<SpillFile>(new SpillFile(fd, m_size, m_what, m_folder));
}

qint64 SpillFile::append(const char *data, size_t size, QString *error) {
    const qint64 start = m_size;
    qint64 offset = start;
    while (size > 0) {
        const ssize_t n = ::pwrite(m_fd, data, size, off_t(offset));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = ENOSPC;
            *error = QStringLiteral("cannot write the %1 file in %2: %3")
                         .arg(m_what, QDir::toNativeSeparators(m_folder), errnoText());
            return -1;
        }
        data += n;
        size -= size_t(n);
        offset += n;
    }
    m_size = offset;
    return start;
}

bool SpillFile::read(qint64 offset, char *into, size_t size, QString *error) const {
    while (size > 0) {
        const ssize_t n = ::pread(m_fd, into, size, off_t(offset));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            *error = QStringLiteral("cannot read the %1 file in %2: %3")
                         .arg(m_what, QDir::toNativeSeparators(m_folder),
                              n == 0 ? QStringLiteral("it ends early") : errnoText());
            return false;
        }
        into += n;
        size -= size_t(n);
        offset += n;
    }
    return true;
}

} // namespace ui

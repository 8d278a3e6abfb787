#include "input/streamdevice.h"

#include <QSocketNotifier>

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <unistd.h>

namespace crawl {

namespace {
// Stop reading ahead once this much waits unread: a fast producer must not fill memory while the crawl
// holds back (the feeder's backpressure). Larger than the reader's longest line, so one always fits.
constexpr qsizetype kMaxBuffered = 1 << 20;
constexpr qsizetype kReadChunk = 64 * 1024;
} // namespace

StreamDevice::StreamDevice(int fd, bool ownsFd, QObject *parent)
    : QIODevice(parent)
    , m_fd(fd)
    , m_ownsFd(ownsFd) {
    open(QIODevice::ReadOnly | QIODevice::Unbuffered);
}

StreamDevice::~StreamDevice() {
    m_notifier.reset(); // before the fd it watches goes
    if (m_ownsFd && m_fd >= 0)
        ::close(m_fd);
}

void StreamDevice::startReading() {
    if (m_notifier || m_endOfInput)
        return;
    m_notifier = std::make_unique<QSocketNotifier>(m_fd, QSocketNotifier::Read);
    // The notifier as context: the slot must run in the reading thread, not in the thread that created
    // this device (the buffer is not shared between threads).
    connect(m_notifier.get(), &QSocketNotifier::activated, m_notifier.get(), [this] { readAvailable(); });
    readAvailable(); // data that is already there (or an fd that cannot be watched) needs no wake-up
}

void StreamDevice::readAvailable() {
    bool gotSomething = false;
    while (!m_endOfInput && m_buffer.size() - m_pos < kMaxBuffered) {
        pollfd ready{m_fd, POLLIN, 0};
        const int polled = ::poll(&ready, 1, 0);
        if (polled < 0 && errno == EINTR)
            continue;
        if (polled <= 0)
            break; // nothing now; the notifier calls again
        compact();
        const qsizetype old = m_buffer.size();
        m_buffer.resize(old + kReadChunk);
        const ssize_t n = ::read(m_fd, m_buffer.data() + old, size_t(kReadChunk));
        m_buffer.resize(old + std::max<ssize_t>(n, 0));
        if (n > 0) {
            gotSomething = true;
            continue;
        }
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n < 0) {
            m_readError = QString::fromLocal8Bit(std::strerror(errno));
            setErrorString(m_readError);
        }
        m_endOfInput = true;
        if (m_buffer.size() > m_pos && !m_buffer.endsWith('\n'))
            m_buffer.append('\n');
        gotSomething = true;
    }
    if (m_notifier)
        m_notifier->setEnabled(!m_endOfInput && m_buffer.size() - m_pos < kMaxBuffered);
    if (gotSomething)
        Q_EMIT readyRead();
}

void StreamDevice::compact() {
    if (m_pos > 0 && m_pos >= m_buffer.size() / 2) {
        m_buffer.remove(0, m_pos);
        m_pos = 0;
    }
}

qint64 StreamDevice::bytesAvailable() const {
    return m_buffer.size() - m_pos;
}

bool StreamDevice::canReadLine() const {
    return m_buffer.indexOf('\n', m_pos) >= 0;
}

bool StreamDevice::atEnd() const {
    return m_endOfInput && m_pos >= m_buffer.size();
}

qint64 StreamDevice::readData(char *data, qint64 maxSize) {
    const qint64 n = std::min<qint64>(maxSize, m_buffer.size() - m_pos);
    if (n <= 0)
        return m_endOfInput ? -1 : 0;
    std::memcpy(data, m_buffer.constData() + m_pos, size_t(n));
    m_pos += n;
    if (m_notifier && !m_endOfInput && !m_notifier->isEnabled() && m_buffer.size() - m_pos < kMaxBuffered)
        m_notifier->setEnabled(true); // room again: let the producer go on
    return n;
}

qint64 StreamDevice::readLineData(char *data, qint64 maxSize) {
    const qsizetype newline = m_buffer.indexOf('\n', m_pos);
    const qint64 lineLength = newline >= 0 ? newline - m_pos + 1 : m_buffer.size() - m_pos;
    return readData(data, std::min(maxSize, lineLength));
}

qint64 StreamDevice::writeData(const char *, qint64) {
    return -1;
}

} // namespace crawl

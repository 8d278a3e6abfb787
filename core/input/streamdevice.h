#pragma once

#include <QByteArray>
#include <QIODevice>

#include <memory>

class QSocketNotifier;

namespace crawl {

// A list that arrives as a stream: standard input or a path that is a pipe, FIFO, terminal or socket
// (`--input -`, `--input <(cmd)`, `--input /dev/stdin`). A blocking read() there can wait forever (an idle
// `tail -f`, a terminal nobody types into), and a thread stuck in read() cannot be told to stop. This
// device only reads when poll() says the fd is readable, buffers what arrived and emits readyRead(); a
// reader that finds no complete line waits for that signal instead of blocking.
//
// Start watching with startReading() in the thread that reads (the notifier belongs to that thread).
// At end of input a final line without a line break gets one, so canReadLine() stays the only test.
class StreamDevice : public QIODevice {
    Q_OBJECT
public:
    // Reads `fd`; closes it on destruction when ownsFd (an fd the caller opened, not standard input).
    explicit StreamDevice(int fd, bool ownsFd = false, QObject *parent = nullptr);
    ~StreamDevice() override;

    void startReading();
    bool isSequential() const override { return true; }
    qint64 bytesAvailable() const override;
    bool canReadLine() const override;
    bool atEnd() const override; // true once the end of input was seen and everything was read
    bool endOfInput() const { return m_endOfInput; }
    QString readError() const { return m_readError; } // empty unless read() failed

protected:
    qint64 readData(char *data, qint64 maxSize) override;
    qint64 readLineData(char *data, qint64 maxSize) override;
    qint64 writeData(const char *data, qint64 maxSize) override;

private:
    void readAvailable();
    void compact();

    int m_fd;
    bool m_ownsFd;
    QByteArray m_buffer;
    qsizetype m_pos = 0; // first unread byte of m_buffer
    bool m_endOfInput = false;
    QString m_readError;
    std::unique_ptr<QSocketNotifier> m_notifier;
};

} // namespace crawl

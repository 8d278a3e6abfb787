#pragma once

#include <QObject>

class QSocketNotifier;

namespace crawl {

// Turns SIGINT, SIGTERM and SIGHUP into a Qt signal in the main thread (self-pipe: the handler only
// write()s). A second signal also arms a fallback: if the process has not ended kForcedExitSeconds
// later, it exits with forcedExitCode from the signal context (a user pressing Ctrl-C twice means it).
class SignalWatcher : public QObject {
    Q_OBJECT
public:
    static constexpr unsigned kForcedExitSeconds = 2;

    explicit SignalWatcher(int forcedExitCode, QObject *parent = nullptr);
    ~SignalWatcher() override;

Q_SIGNALS:
    void interrupted(int signalNumber);

private:
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace crawl

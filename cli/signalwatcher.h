#pragma once

#include <QObject>

class QSocketNotifier;

namespace crawl {

// Turns SIGINT, SIGTERM and SIGHUP into a Qt signal in the main thread (self-pipe: the handler only
// write()s).
class SignalWatcher : public QObject {
    Q_OBJECT
public:
    explicit SignalWatcher(QObject *parent = nullptr);
    ~SignalWatcher() override;

Q_SIGNALS:
    void interrupted(int signalNumber);

private:
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace crawl

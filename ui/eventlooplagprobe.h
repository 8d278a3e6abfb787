#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <vector>

namespace ui {

// Measures how responsive the thread's event loop is: a 5 ms precise timer records how late each tick
// fires. A GUI that keeps p99 under 16 ms never drops a frame because of its own work.
class EventLoopLagProbe : public QObject {
    Q_OBJECT
public:
    explicit EventLoopLagProbe(QObject *parent = nullptr, int intervalMs = 5);

    void start();
    void stop();
    void reset();
    bool isRunning() const { return m_timer.isActive(); }

    qsizetype samples() const { return qsizetype(m_lagUs.size()); }
    double percentileMs(double p) const; // p in [0, 100]; 0 when there are no samples
    double p50Ms() const { return percentileMs(50); }
    double p99Ms() const { return percentileMs(99); }
    double maxMs() const { return percentileMs(100); }

private:
    void tick();

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastNs = 0;
    int m_intervalMs;
    std::vector<qint32> m_lagUs; // capped; the newest samples overwrite the oldest
    size_t m_next = 0;
};

} // namespace ui

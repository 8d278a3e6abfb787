#include "progressline.h"

#include "stderrline.h"

namespace crawl {

ProgressLine::ProgressLine(bool quiet, QObject *parent)
    : QObject(parent)
    , m_quiet(quiet) {
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, [this] { printStderrLine(format(m_latest)); });
}

void ProgressLine::start() {
    if (!m_quiet)
        m_timer.start();
}

void ProgressLine::finish(const CrawlSnapshot &last) {
    m_timer.stop();
    if (!m_quiet)
        printStderrLine(format(last));
}

QString ProgressLine::format(const CrawlSnapshot &s) {
    const QString total = s.total >= 0 ? QString::number(s.total) : QStringLiteral("?");
    const QString percent =
        s.total > 0 ? QStringLiteral(" (%1%)").arg(100.0 * double(s.done) / double(s.total), 0, 'f', 1)
                    : QString();
    return QStringLiteral("[%1] %2/%3%4  %5/s  in-flight %6  queued %7  failed %8  retries %9  ETA %10")
        .arg(formatDuration(s.elapsedMs), QString::number(s.done), total, percent)
        .arg(s.throughputPerSec, 0, 'f', 1)
        .arg(s.inFlight)
        .arg(s.queued)
        .arg(s.failed)
        .arg(s.retries)
        .arg(s.state == CrawlState::Finished ? QStringLiteral("0s") : formatDuration(s.etaMs));
}

} // namespace crawl

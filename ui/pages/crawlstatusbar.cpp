#include "pages/crawlstatusbar.h"

#include "status/etaestimate.h"

#include <QDateTime>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QStatusBar>

#include <algorithm>
#include <climits>

namespace ui {

namespace {

QString number(qint64 n) {
    return QLocale().toString(n);
}

} // namespace

CrawlStatusBar::CrawlStatusBar(QStatusBar *bar)
    : QObject(bar)
    , m_bar(bar) {
    auto label = [bar](const QString &tip, const QString &sample) {
        auto *l = new QLabel(bar);
        l->setToolTip(tip);
        l->setMinimumWidth(l->fontMetrics().horizontalAdvance(sample));
        bar->addPermanentWidget(l);
        return l;
    };
    m_taskProgress = new QProgressBar(bar);
    m_taskProgress->setMaximumWidth(180);
    m_taskProgress->setVisible(false);
    bar->addPermanentWidget(m_taskProgress);
    m_stateLabel = label(tr("Crawl state"), QStringLiteral("Stopping…"));
    m_progress = new QProgressBar(bar);
    m_progress->setObjectName(QStringLiteral("crawlProgress"));
    m_progress->setToolTip(tr("URLs done of the total in the list"));
    m_progress->setMinimumWidth(220);
    m_progress->setFormat(QStringLiteral("%v / %m"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    bar->addPermanentWidget(m_progress);
    m_rateLabel = label(tr("URLs finished per second, averaged over the last 5 seconds (after the crawl: "
                           "its average)"),
                        QStringLiteral("9999.9 URLs/s"));
    m_inFlightLabel = label(tr("Requests in flight over all hosts"), QStringLiteral("In flight: 256"));
    m_failuresLabel = label(tr("URLs that did not end ok"), QStringLiteral("Failures: 100,000"));
    m_elapsedLabel = label(tr("Time since the crawl started"), QStringLiteral("Elapsed 0:00:00"));
    m_etaLabel = label(tr("Estimated time to finish: the current rate, but never less than the slowest "
                          "host's pacing, latency and back-off allow; paused hosts are counted apart"),
                       QStringLiteral("waiting on 1 host until 00:00:00"));
    update(crawl::CrawlSnapshot{});
}

void CrawlStatusBar::addSnapshot(const crawl::CrawlSnapshot &snapshot, qint64 nowMs) {
    m_throughput.add(nowMs, snapshot.done);
}

void CrawlStatusBar::clear() {
    m_throughput.clear();
}

void CrawlStatusBar::showTask(const QString &format, qint64 done, qint64 total) {
    m_taskProgress->setVisible(true);
    m_taskProgress->setFormat(format);
    m_taskProgress->setRange(0, total > 0 ? 1000 : 0);
    if (total > 0)
        m_taskProgress->setValue(int(done * 1000 / total));
}

void CrawlStatusBar::hideTask() {
    m_taskProgress->setVisible(false);
}

void CrawlStatusBar::update(const crawl::CrawlSnapshot &s) {
    m_stateLabel->setText(crawl::crawlStateName(s.state));
    if (s.total >= 0) {
        m_progress->setRange(0, int(std::min<qint64>(s.total, INT_MAX)));
        m_progress->setValue(int(std::min<qint64>(s.done, INT_MAX)));
        m_progress->setFormat(tr("%1 / %2").arg(number(s.done), number(s.total)));
    } else if (s.state == crawl::CrawlState::Running) {
        m_progress->setRange(0, 0); // total not known yet: busy
        m_progress->setFormat(number(s.done));
    } else {
        m_progress->setRange(0, 1);
        m_progress->setValue(0);
        m_progress->setFormat(tr("No crawl"));
    }
    // Smoothed over the last seconds while crawling; the whole crawl's average once it has ended.
    const double rate = s.state == crawl::CrawlState::Finished
                            ? (s.elapsedMs > 0 ? double(s.done) * 1000.0 / double(s.elapsedMs) : 0.0)
                            : m_throughput.perSecond();
    m_rateLabel->setText(rate < 0 ? tr("– URLs/s") : tr("%1 URLs/s").arg(rate, 0, 'f', 1));
    m_inFlightLabel->setText(tr("In flight: %1").arg(s.inFlight));
    m_failuresLabel->setText(tr("Failures: %1").arg(number(s.failed)));
    m_elapsedLabel->setText(tr("Elapsed %1").arg(crawl::formatDuration(s.elapsedMs)));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_etaLabel->setText(etaText(estimateEta(s, rate, now), s.state));
}

} // namespace ui

#include "charts/chartspanel.h"

#include "charts/timeserieschart.h"

#include <QDateTime>
#include <QHBoxLayout>

#include <algorithm>

namespace ui {

namespace {
constexpr qsizetype kPoints = 2400; // 10 minutes at 4 snapshots a second
constexpr int kRedrawMs = 333;
const QColor kHostColors[] = {QColor(0xe6, 0x7e, 0x22), QColor(0x27, 0xae, 0x60), QColor(0x8e, 0x44, 0xad),
                              QColor(0x16, 0xa0, 0x85)};
} // namespace

ChartsPanel::ChartsPanel(QWidget *parent)
    : QWidget(parent)
    , m_inFlight(new TimeSeriesChart(tr("In flight"), tr("requests"), TimeSeriesChart::Scale::Linear, this))
    , m_latency(
          new TimeSeriesChart(tr("Latency"), tr("ms (log scale)"), TimeSeriesChart::Scale::Logarithmic, this))
    , m_throughput(
          new TimeSeriesChart(tr("Throughput"), tr("per second"), TimeSeriesChart::Scale::Linear, this))
    , m_totalInFlight(kPoints)
    , m_p50(kPoints)
    , m_p95(kPoints)
    , m_p99(kPoints)
    , m_throughputPoints(kPoints)
    , m_errorPoints(kPoints) {
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_inFlight, 4);
    layout->addWidget(m_latency, 3);
    layout->addWidget(m_throughput, 3);

    m_inFlight->setToolTip(tr("Requests in flight: all hosts, and the busiest hosts on their own"));
    m_latency->setToolTip(tr("Latency percentiles of the requests that ended in the last snapshot period"));
    m_throughput->setToolTip(tr("URLs finished and URLs failed per second"));

    m_inFlight->addSeries(tr("total"), QColor(0x1f, 0x5f, 0xa8), 2.5);
    for (int i = 0; i < kBusiestHosts; ++i)
        m_inFlight->addSeries({}, kHostColors[i], 1.5);
    m_latency->addSeries(tr("p50"), QColor(0x27, 0xae, 0x60));
    m_latency->addSeries(tr("p95"), QColor(0xe6, 0x7e, 0x22));
    m_latency->addSeries(tr("p99"), QColor(0xc0, 0x39, 0x2b));
    m_latency->setValueFloor(10);
    m_throughput->addSeries(tr("finished/s"), QColor(0x1f, 0x5f, 0xa8));
    m_throughput->addSeries(tr("errors/s"), QColor(0xc0, 0x39, 0x2b));

    m_timer.setInterval(kRedrawMs);
    connect(&m_timer, &QTimer::timeout, this, &ChartsPanel::flush);
    m_timer.start();
    m_dirty = true;
    flush();
}

void ChartsPanel::setWindowSeconds(int seconds) {
    m_windowSeconds = std::max(10, seconds);
    m_dirty = true;
}

void ChartsPanel::clear() {
    for (RingBuffer<QPointF> *buffer :
         {&m_totalInFlight, &m_p50, &m_p95, &m_p99, &m_throughputPoints, &m_errorPoints})
        buffer->clear();
    m_hosts.clear();
    m_busiest.clear();
    m_firstMs = m_lastMs = 0;
    m_dirty = true;
    flush();
}

void ChartsPanel::addSnapshot(const crawl::CrawlSnapshot &snapshot, qint64 nowMs) {
    const double x = double(nowMs);
    if (m_firstMs == 0)
        m_firstMs = nowMs;
    m_lastMs = nowMs;
    m_totalInFlight.push({x, double(snapshot.inFlight)});
    // A period in which nothing finished has no latency: leave a gap-free line by skipping it.
    if (snapshot.recentP50Ms >= 0) {
        // The latency axis is logarithmic: sub-millisecond values sit on its 1 ms floor.
        m_p50.push({x, double(std::max(snapshot.recentP50Ms, 1))});
        m_p95.push({x, double(std::max(snapshot.recentP95Ms, 1))});
        m_p99.push({x, double(std::max(snapshot.recentP99Ms, 1))});
    }
    m_throughputPoints.push({x, snapshot.throughputPerSec});
    m_errorPoints.push({x, snapshot.errorsPerSec});

    // Busiest hosts: a moving average of in-flight per host; the top few get their own line.
    for (const crawl::HostSnapshot &host : snapshot.hosts) {
        auto it = m_hosts.find(host.host);
        if (it == m_hosts.end()) {
            if (host.inFlight == 0)
                continue;
            if (m_hosts.size() >= kTrackedHosts) {
                // Evict the lightest host that is not shown.
                auto victim = m_hosts.end();
                for (auto h = m_hosts.begin(); h != m_hosts.end(); ++h) {
                    if (!m_busiest.contains(h.key()) &&
                        (victim == m_hosts.end() || h->weight < victim->weight))
                        victim = h;
                }
                if (victim == m_hosts.end() || victim->weight >= host.inFlight)
                    continue;
                m_hosts.erase(victim);
            }
            it = m_hosts.insert(host.host, HostTrack{RingBuffer<QPointF>(kPoints), 0, 0});
        }
        it->weight = 0.9 * it->weight + 0.1 * host.inFlight;
        it->lastSeenMs = nowMs;
        it->points.push({x, double(host.inFlight)});
    }
    QList<QPair<double, QString>> ranked;
    for (auto h = m_hosts.cbegin(); h != m_hosts.cend(); ++h)
        ranked.append({h->weight, h.key()});
    std::sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    m_busiest.clear();
    for (qsizetype i = 0; i < ranked.size() && i < kBusiestHosts; ++i) {
        if (ranked[i].first > 0.05)
            m_busiest.append(ranked[i].second);
    }
    m_dirty = true;
}

void ChartsPanel::flush() {
    if (!m_dirty)
        return;
    m_dirty = false;
    auto visible = [this](const RingBuffer<QPointF> &buffer) {
        // Only the points inside the time window are handed to the chart.
        const double from = double(m_lastMs - qint64(m_windowSeconds) * 1000);
        QList<QPointF> out;
        out.reserve(buffer.size());
        for (qsizetype i = 0; i < buffer.size(); ++i) {
            if (buffer.at(i).x() >= from)
                out.append(buffer.at(i));
        }
        return out;
    };
    m_inFlight->setPoints(0, tr("total"), visible(m_totalInFlight));
    // Hosts on one machine share a long prefix ("127.0.0."): the legend shows what tells them apart.
    QString common = m_busiest.value(0);
    for (const QString &host : std::as_const(m_busiest)) {
        qsizetype n = 0;
        while (n < common.size() && n < host.size() && common[n] == host[n])
            ++n;
        common.truncate(n);
    }
    const qsizetype cut = m_busiest.size() > 1 && common.size() > 3 ? common.size() : 0;
    for (int i = 0; i < kBusiestHosts; ++i) {
        if (i < m_busiest.size())
            m_inFlight->setPoints(i + 1, cut ? QStringLiteral("…") + m_busiest[i].mid(cut) : m_busiest[i],
                                  visible(m_hosts.constFind(m_busiest[i])->points));
        else
            m_inFlight->setPoints(i + 1, {}, {});
    }
    m_latency->setPoints(0, tr("p50"), visible(m_p50));
    m_latency->setPoints(1, tr("p95"), visible(m_p95));
    m_latency->setPoints(2, tr("p99"), visible(m_p99));
    m_throughput->setPoints(0, tr("finished/s"), visible(m_throughputPoints));
    m_throughput->setPoints(1, tr("errors/s"), visible(m_errorPoints));

    // The last `window` seconds; a young crawl fills the width from its start (at least 20 s shown).
    const qint64 last = m_lastMs > 0 ? m_lastMs : QDateTime::currentMSecsSinceEpoch();
    const qint64 first = m_firstMs > 0 ? m_firstMs : last;
    const qint64 from = std::max(last - qint64(m_windowSeconds) * 1000, first);
    const qint64 to = std::max(last, from + 20'000);
    for (TimeSeriesChart *chart : {m_inFlight, m_latency, m_throughput})
        chart->setTimeRange(from, to);
}

} // namespace ui

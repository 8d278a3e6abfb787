#include "policy/pacecontroller.h"

#include <QList>

#include <algorithm>
#include <cmath>

namespace crawl {

namespace {
constexpr int kFirstExtraIntervalMs = 250;
constexpr double kBaselineWeight = 0.1; // slow: one odd answer barely moves the baseline
} // namespace

void PaceController::configure(int ceilingInFlight, int userIntervalMs) {
    const int ceiling = std::max(1, ceilingInFlight);
    // Was at the old ceiling after slow start: follow the user's new one (slow start climbs by itself; the
    // engine may configure a new host with a default before the crawl's own limits arrive).
    if (!m_slowStart && m_ceiling != ceiling && m_limit >= m_ceiling)
        m_limit = ceiling;
    m_ceiling = ceiling;
    m_limit = std::clamp(m_limit, 1, m_ceiling);
    m_userIntervalMs = std::max(0, userIntervalMs);
}

PaceController::Change PaceController::onResponse(AttemptHealth health, int status, qint64 latencyMs,
                                                  int inFlightNow) {
    const bool ignoring = m_ignoreOverloads > 0;
    if (ignoring)
        --m_ignoreOverloads;

    const bool slow = health == AttemptHealth::Healthy && m_samples >= kBaselineSamples &&
                      double(latencyMs) > std::max(m_baselineMs * kSlowFactor, m_baselineMs + kSlowMarginMs);
    const bool overload = status == 429 || status == 503 || health == AttemptHealth::Timeout || slow;
    if (overload) {
        m_healthyRun = 0;
        if (ignoring)
            return Change::None;
        if (slow)
            decrease(
                QStringLiteral("latency %1 ms (baseline %2 ms)").arg(latencyMs).arg(qint64(m_baselineMs)),
                inFlightNow);
        else if (health == AttemptHealth::Timeout)
            decrease(QStringLiteral("timeout"), inFlightNow);
        else
            decrease(QString::number(status), inFlightNow);
        return Change::Decreased;
    }
    if (health != AttemptHealth::Healthy)
        return Change::None; // neutral: not a sign of load

    m_baselineMs = m_samples == 0
                       ? double(latencyMs)
                       : (1 - kBaselineWeight) * m_baselineMs + kBaselineWeight * double(latencyMs);
    ++m_samples;
    if (++m_healthyRun < roundLength())
        return Change::None;
    m_healthyRun = 0;
    if (m_extraIntervalMs == 0 && m_limit >= m_ceiling)
        return Change::None;
    increase();
    return Change::Increased;
}

int PaceController::roundLength() const {
    // The step up would reach the limit the host last refused: stay longer where it said yes.
    const bool nearRefusal = m_extraIntervalMs == 0 && m_refusedLimit > 0 && m_limit + 1 >= m_refusedLimit;
    return nearRefusal ? m_limit * kPlateauRounds : m_limit;
}

void PaceController::decrease(const QString &why, int inFlightNow) {
    m_slowStart = false;
    if (m_limit > 1) {
        m_refusedLimit = m_limit;
        m_limit = std::max(1, m_limit / 2);
    } else
        m_extraIntervalMs = std::min(kMaxIntervalMs, std::max(kFirstExtraIntervalMs, m_extraIntervalMs * 2));
    m_ignoreOverloads = std::max(0, inFlightNow);
    m_reason = QStringLiteral("down on %1").arg(why);
}

void PaceController::increase() {
    const int answers = roundLength();
    if (m_slowStart) {
        m_limit = std::min(m_ceiling, m_limit * 2);
        m_slowStart = m_limit < m_ceiling; // the host took all the user allows: slow start is done
        m_reason = QStringLiteral("up after %1 healthy answers (slow start)").arg(answers);
        return;
    }
    if (m_extraIntervalMs > 0) {
        // Slow down less before going wider: the interval was the last thing added.
        m_extraIntervalMs = m_extraIntervalMs / 2 <= kFirstExtraIntervalMs / 2 ? 0 : m_extraIntervalMs / 2;
    } else {
        m_limit = std::min(m_ceiling, m_limit + 1);
        if (m_limit >= m_refusedLimit)
            m_refusedLimit = 0; // the host takes now what it refused: grow as usual again
    }
    m_reason = QStringLiteral("up after %1 healthy answers").arg(answers);
}

namespace {
constexpr char kStateTag[] = "pace1";
constexpr int kStateNumbers = 10; // the fields before the reason
} // namespace

QByteArray PaceController::toState() const {
    QByteArray out = kStateTag;
    for (const qint64 v :
         {qint64(m_ceiling), qint64(m_userIntervalMs), qint64(m_limit), qint64(m_slowStart),
          qint64(m_refusedLimit), qint64(m_extraIntervalMs), qint64(m_healthyRun), qint64(m_ignoreOverloads)})
        out += ' ' + QByteArray::number(v);
    out += ' ' + QByteArray::number(m_baselineMs, 'g', 17) + ' ' + QByteArray::number(m_samples);
    return out + ' ' + m_reason.toUtf8(); // last: it may hold spaces
}

std::optional<PaceController> PaceController::fromState(const QByteArray &state) {
    // The tag, kStateNumbers numbers, then the reason (the rest of the line, possibly empty).
    QList<QByteArray> parts;
    qsizetype from = 0;
    while (parts.size() < kStateNumbers + 1) {
        const qsizetype space = state.indexOf(' ', from);
        if (space < 0)
            return std::nullopt;
        parts.append(state.mid(from, space - from));
        from = space + 1;
    }
    if (parts[0] != kStateTag)
        return std::nullopt;
    int n[8];
    for (int i = 0; i < 8; ++i) {
        bool ok = false;
        n[i] = parts[i + 1].toInt(&ok);
        if (!ok || n[i] < 0)
            return std::nullopt;
    }
    bool ok = false;
    const double baseline = parts[9].toDouble(&ok);
    if (!ok || !std::isfinite(baseline) || baseline < 0)
        return std::nullopt;
    const int samples = parts[10].toInt(&ok);
    if (!ok || samples < 0)
        return std::nullopt;
    PaceController pace;
    pace.m_ceiling = n[0];
    pace.m_userIntervalMs = n[1];
    pace.m_limit = std::max(1, n[2]);
    pace.m_slowStart = n[3] != 0;
    pace.m_refusedLimit = n[4];
    pace.m_extraIntervalMs = std::min(kMaxIntervalMs, n[5]);
    pace.m_healthyRun = n[6];
    pace.m_ignoreOverloads = n[7];
    pace.m_baselineMs = baseline;
    pace.m_samples = samples;
    pace.m_reason = QString::fromUtf8(state.mid(from));
    return pace;
}

} // namespace crawl

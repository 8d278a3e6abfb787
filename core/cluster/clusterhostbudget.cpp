#include "cluster/clusterhostbudget.h"

#include "cluster/clusterscripts.h"
#include "cluster/redisconnection.h"
#include "policy/pacecontroller.h"

namespace crawl {

namespace {

QByteArray timeArg(std::optional<qint64> nowMs) {
    return QByteArray::number(nowMs.value_or(-1));
}

// pace_view() in a reply from `from` on: {version, state, ceiling, interval, n, events...}.
std::optional<SharedPace> sharedPaceOf(const QList<RedisReply> &e, qsizetype from) {
    if (e.size() < from + 5)
        return std::nullopt;
    SharedPace pace;
    pace.version = e[from].toInteger();
    pace.state = e[from + 1].text;
    pace.ceiling = static_cast<int>(e[from + 2].toInteger(1));
    pace.storedIntervalMs = e[from + 3].toInteger();
    const qint64 n = e[from + 4].toInteger(-1);
    if (n < 0 || e.size() != from + 5 + n)
        return std::nullopt;
    for (qsizetype i = from + 5; i < e.size(); ++i) {
        if (const std::optional<PaceEvent> event = parsePaceEvent(e[i].text))
            pace.events.append(*event);
    }
    return pace;
}

} // namespace

ClusterHostBudget::ClusterHostBudget(RedisConnection &connection, const QString &crawlName)
    : m_prefix(clusterKeyPrefix(crawlName))
    , m_connection(connection) {}

StartDecision ClusterHostBudget::tryStart(const QString &host, const QByteArray &grantId, qint64 grantTtlMs,
                                          std::optional<qint64> nowMs) {
    const RedisReply reply =
        m_connection.evalScript(ClusterScripts::tryStart(), {m_prefix},
                                {host.toUtf8(), grantId, QByteArray::number(grantTtlMs), timeArg(nowMs)});
    StartDecision decision;
    if (reply.isError() || reply.elements.size() < 6) {
        decision.error = reply.isError() ? QString::fromUtf8(reply.text) : QStringLiteral("unexpected reply");
        m_lastError = decision.error;
        return decision;
    }
    decision.granted = reply.elements[0].toInteger() == 1;
    decision.atMs = reply.elements[1].toInteger();
    decision.reason = static_cast<StartDecision::Reason>(reply.elements[2].toInteger());
    decision.hostInFlight = static_cast<int>(reply.elements[3].toInteger());
    decision.limitsVersion = reply.elements[4].toInteger();
    decision.serverNowMs = reply.elements[5].toInteger();
    return decision;
}

bool ClusterHostBudget::finished(const QString &host, const QByteArray &grantId,
                                 std::optional<qint64> nowMs) {
    const RedisReply reply = m_connection.evalScript(ClusterScripts::finished(), {m_prefix},
                                                     {host.toUtf8(), grantId, timeArg(nowMs)});
    if (reply.isError())
        m_lastError = QString::fromUtf8(reply.text);
    return !reply.isError() && reply.toInteger() == 1;
}

std::optional<qint64> ClusterHostBudget::renew(const QString &host, const QByteArray &grantId,
                                               qint64 grantTtlMs, std::optional<qint64> nowMs) {
    const RedisReply reply =
        m_connection.evalScript(ClusterScripts::renewGrant(), {m_prefix},
                                {host.toUtf8(), grantId, QByteArray::number(grantTtlMs), timeArg(nowMs)});
    if (reply.isError()) {
        m_lastError = QString::fromUtf8(reply.text);
        return std::nullopt;
    }
    const qint64 expiry = reply.toInteger();
    return expiry > 0 ? std::optional<qint64>(expiry) : std::nullopt;
}

std::optional<qint64> ClusterHostBudget::pauseHost(const QString &host, qint64 untilMs,
                                                   std::optional<qint64> nowMs) {
    const RedisReply reply =
        m_connection.evalScript(ClusterScripts::pauseHost(), {m_prefix},
                                {host.toUtf8(), QByteArray::number(untilMs), timeArg(nowMs)});
    if (reply.isError()) {
        m_lastError = QString::fromUtf8(reply.text);
        return std::nullopt;
    }
    return reply.toInteger();
}

std::optional<bool> ClusterHostBudget::hostAction(const QString &host, HostAction action,
                                                  std::optional<qint64> nowMs) {
    QByteArray name;
    switch (action) {
    case HostAction::Pause:
        name = "pause";
        break;
    case HostAction::Resume:
        name = "resume";
        break;
    case HostAction::Skip:
        name = "skip";
        break;
    case HostAction::ResumeTripped:
        name = "reset";
        break;
    }
    const RedisReply reply = m_connection.evalScript(ClusterScripts::hostAction(), {m_prefix},
                                                     {host.toUtf8(), name, timeArg(nowMs)});
    if (reply.isError()) {
        m_lastError = QString::fromUtf8(reply.text);
        return std::nullopt;
    }
    return reply.toInteger() == 1;
}

bool ClusterHostBudget::setBreaker(const QString &host, const QString &state, qint64 untilMs,
                                   std::optional<qint64> nowMs) {
    if (state != QLatin1String("closed") && state != QLatin1String("open") &&
        state != QLatin1String("halfopen")) {
        m_lastError = QStringLiteral("unknown breaker state \"%1\"").arg(state);
        return false;
    }
    const RedisReply reply =
        m_connection.evalScript(ClusterScripts::setBreaker(), {m_prefix},
                                {host.toUtf8(), state.toUtf8(), QByteArray::number(untilMs), timeArg(nowMs)});
    if (reply.isError())
        m_lastError = QString::fromUtf8(reply.text);
    return !reply.isError();
}

BreakerRecord ClusterHostBudget::recordAttempt(const QString &host, const QByteArray &grantId, int health,
                                               std::optional<qint64> nowMs) {
    return recordAttempt(host, grantId, health, 0, -1, nowMs);
}

BreakerRecord ClusterHostBudget::recordAttempt(const QString &host, const QByteArray &grantId, int health,
                                               int status, qint64 latencyMs, std::optional<qint64> nowMs) {
    QList<QByteArray> args = {host.toUtf8(), grantId, QByteArray::number(health), timeArg(nowMs)};
    if (latencyMs >= 0)
        args << QByteArray::number(status) << QByteArray::number(latencyMs);
    const RedisReply reply = m_connection.evalScript(ClusterScripts::recordAttempt(), {m_prefix}, args);
    BreakerRecord record;
    if (reply.isError() || (reply.elements.size() != 8 && reply.elements.size() < 14)) {
        record.error = reply.isError() ? QString::fromUtf8(reply.text) : QStringLiteral("unexpected reply");
        m_lastError = record.error;
        return record;
    }
    record.transition = static_cast<BreakerRecord::Transition>(reply.elements[0].toInteger());
    record.state = QString::fromUtf8(reply.elements[1].text);
    record.probeAtMs = reply.elements[2].toInteger();
    record.failures = static_cast<int>(reply.elements[3].toInteger());
    record.count = static_cast<int>(reply.elements[4].toInteger());
    record.dominantHealth = static_cast<int>(reply.elements[5].toInteger());
    record.trips = static_cast<int>(reply.elements[6].toInteger());
    record.serverNowMs = reply.elements[7].toInteger();
    if (reply.elements.size() > 8) {
        record.pace = sharedPaceOf(reply.elements, 9);
        if (record.pace)
            record.pace->eventSeq = reply.elements[8].toInteger();
    }
    return record;
}

PaceUpdate ClusterHostBudget::updatePace(const QString &host, SharedPace shared,
                                         std::optional<qint64> nowMs) {
    PaceUpdate update;
    const qint64 eventSeq = shared.eventSeq;
    while (update.attempts < kPaceCommitAttempts) {
        update.commit = foldSharedPace(shared);
        const PaceCommit &c = update.commit;
        ++update.attempts;
        const RedisReply reply = m_connection.evalScript(
            ClusterScripts::commitPace(), {m_prefix},
            {host.toUtf8(), QByteArray::number(c.expectedVersion), QByteArray::number(c.through), c.state,
             QByteArray::number(c.inFlightLimit), QByteArray::number(c.gapMs), c.reason.toUtf8(),
             timeArg(nowMs)});
        if (reply.isError() || reply.elements.isEmpty()) {
            update.error =
                reply.isError() ? QString::fromUtf8(reply.text) : QStringLiteral("unexpected reply");
            m_lastError = update.error;
            return update;
        }
        if (reply.elements[0].toInteger() == 1) {
            update.committed = true;
            return update;
        }
        std::optional<SharedPace> now = sharedPaceOf(reply.elements, 1);
        if (!now) {
            update.error = m_lastError = QStringLiteral("unexpected reply");
            return update;
        }
        if (now->version >= eventSeq)
            return update; // another worker's fold took this event: nothing left to do here
        now->eventSeq = eventSeq;
        shared = *now;
    }
    return update;
}

std::optional<qint64> ClusterHostBudget::setLimits(const ClusterLimits &limits) {
    const BreakerSettings &b = limits.breaker;
    if (limits.globalInFlight < 1 || limits.perHostInFlight < 1 || limits.intervalMs < 0 ||
        limits.maxAttempts < 0 || limits.jitterPermille < 0 || limits.jitterPermille > 1000 ||
        !(limits.maxRatePerSec >= 0) || b.window < 1 || !(b.threshold > 0 && b.threshold <= 1) ||
        b.windowS < 1 || b.cooldownS < 0 || b.cooldownMs < 0 || b.cooldownCapFactor < 1 || b.giveUpS < 0 ||
        b.giveUpMs < 0) {
        m_lastError =
            QStringLiteral("in-flight limits must be at least 1, the interval and attempts not negative, the "
                           "jitter within 0-1000 permille, the rate not negative, the breaker's settings in "
                           "their ranges");
        return std::nullopt;
    }
    const qint64 cooldownMs = b.cooldownMs > 0 ? b.cooldownMs : qint64(b.cooldownS) * 1000;
    const qint64 giveUpMs = b.giveUpMs > 0 ? b.giveUpMs : qint64(b.giveUpS) * 1000;
    const RedisReply reply = m_connection.evalScript(
        ClusterScripts::setLimits(), {m_prefix},
        {QByteArrayLiteral("global"),         QByteArray::number(limits.globalInFlight),
         QByteArrayLiteral("perhost"),        QByteArray::number(limits.perHostInFlight),
         QByteArrayLiteral("interval"),       QByteArray::number(limits.intervalMs),
         QByteArrayLiteral("maxattempts"),    QByteArray::number(limits.maxAttempts),
         QByteArrayLiteral("jitter"),         QByteArray::number(limits.jitterPermille),
         QByteArrayLiteral("maxrate"),        QByteArray::number(limits.maxRatePerSec, 'g', 10),
         QByteArrayLiteral("bk_on"),          QByteArray::number(b.enabled ? 1 : 0),
         QByteArrayLiteral("bk_window"),      QByteArray::number(b.window),
         QByteArrayLiteral("bk_threshold"),   QByteArray::number(b.threshold, 'g', 10),
         QByteArrayLiteral("bk_window_s"),    QByteArray::number(b.windowS),
         QByteArrayLiteral("bk_cooldown_ms"), QByteArray::number(cooldownMs),
         QByteArrayLiteral("bk_capfactor"),   QByteArray::number(b.cooldownCapFactor),
         QByteArrayLiteral("bk_giveup_ms"),   QByteArray::number(giveUpMs),
         QByteArrayLiteral("adaptive"),       QByteArray::number(limits.adaptive ? 1 : 0),
         QByteArrayLiteral("pace_start"),     QByteArray::number(PaceController::kStartInFlight)});
    if (reply.isError()) {
        m_lastError = QString::fromUtf8(reply.text);
        return std::nullopt;
    }
    return reply.toInteger();
}

std::optional<qint64> ClusterHostBudget::setHostOverride(const QString &host, std::optional<int> inFlight,
                                                         std::optional<qint64> intervalMs) {
    if ((inFlight && *inFlight < 1) || (intervalMs && *intervalMs < 0)) {
        m_lastError =
            QStringLiteral("a host's in-flight limit must be at least 1, its interval not negative");
        return std::nullopt;
    }
    const RedisReply reply =
        m_connection.evalScript(ClusterScripts::setHostOverride(), {m_prefix},
                                {host.toUtf8(), inFlight ? QByteArray::number(*inFlight) : QByteArray(),
                                 intervalMs ? QByteArray::number(*intervalMs) : QByteArray(), timeArg({})});
    if (reply.isError()) {
        m_lastError = QString::fromUtf8(reply.text);
        return std::nullopt;
    }
    return reply.toInteger();
}

std::optional<ClusterLimits> ClusterHostBudget::limits() {
    const RedisReply reply = m_connection.command(
        {QByteArrayLiteral("HMGET"), m_prefix + "limits", QByteArrayLiteral("global"),
         QByteArrayLiteral("perhost"), QByteArrayLiteral("interval"), QByteArrayLiteral("maxattempts"),
         QByteArrayLiteral("version"), QByteArrayLiteral("jitter"), QByteArrayLiteral("maxrate"),
         QByteArrayLiteral("bk_on"), QByteArrayLiteral("bk_window"), QByteArrayLiteral("bk_threshold"),
         QByteArrayLiteral("bk_window_s"), QByteArrayLiteral("bk_cooldown_ms"),
         QByteArrayLiteral("bk_capfactor"), QByteArrayLiteral("bk_giveup_ms"), QByteArrayLiteral("adaptive")},
        RedisConnection::Replay::AfterReconnect);
    if (reply.isError() || reply.elements.size() != 15) {
        m_lastError = reply.isError() ? QString::fromUtf8(reply.text) : QStringLiteral("unexpected reply");
        return std::nullopt;
    }
    // The same defaults the scripts apply to missing fields.
    ClusterLimits out;
    out.globalInFlight = static_cast<int>(reply.elements[0].toInteger(out.globalInFlight));
    out.perHostInFlight = static_cast<int>(reply.elements[1].toInteger(out.perHostInFlight));
    out.intervalMs = reply.elements[2].toInteger(out.intervalMs);
    out.maxAttempts = static_cast<int>(reply.elements[3].toInteger(out.maxAttempts));
    out.version = reply.elements[4].toInteger(0);
    out.jitterPermille = static_cast<int>(reply.elements[5].toInteger(0));
    const auto real = [&reply](int i, double fallback) {
        bool ok = false;
        const double v = reply.elements[i].text.toDouble(&ok);
        return ok ? v : fallback;
    };
    out.maxRatePerSec = real(6, 0.0);
    BreakerSettings &b = out.breaker;
    b.enabled = reply.elements[7].toInteger(1) != 0;
    b.window = static_cast<int>(reply.elements[8].toInteger(b.window));
    b.threshold = real(9, b.threshold);
    b.windowS = static_cast<int>(reply.elements[10].toInteger(b.windowS));
    const qint64 cooldownMs = reply.elements[11].toInteger(qint64(b.cooldownS) * 1000);
    // Whole seconds read back as the flag gave them; anything else (a test's milliseconds) as milliseconds.
    if (cooldownMs % 1000 == 0) {
        b.cooldownS = static_cast<int>(cooldownMs / 1000);
    } else {
        b.cooldownMs = static_cast<int>(cooldownMs);
    }
    b.cooldownCapFactor = static_cast<int>(reply.elements[12].toInteger(b.cooldownCapFactor));
    const qint64 giveUpMs = reply.elements[13].toInteger(qint64(b.giveUpS) * 1000);
    if (giveUpMs % 1000 == 0) {
        b.giveUpS = static_cast<int>(giveUpMs / 1000);
    } else {
        b.giveUpMs = static_cast<int>(giveUpMs);
    }
    out.adaptive = reply.elements[14].toInteger(0) == 1;
    return out;
}

std::optional<qint64> ClusterHostBudget::limitsVersion() {
    const RedisReply reply =
        m_connection.command({QByteArrayLiteral("HGET"), m_prefix + "limits", QByteArrayLiteral("version")},
                             RedisConnection::Replay::AfterReconnect);
    if (reply.isError()) {
        m_lastError = QString::fromUtf8(reply.text);
        return std::nullopt;
    }
    return reply.toInteger(0);
}

HostBudgetStatus ClusterHostBudget::hostStatus(const QString &host, std::optional<qint64> nowMs) {
    const RedisReply reply =
        m_connection.evalScript(ClusterScripts::hostStatus(), {m_prefix}, {host.toUtf8(), timeArg(nowMs)});
    HostBudgetStatus status;
    if (reply.isError() || reply.elements.size() != 12) {
        status.error = reply.isError() ? QString::fromUtf8(reply.text) : QStringLiteral("unexpected reply");
        m_lastError = status.error;
        return status;
    }
    status.inFlight = static_cast<int>(reply.elements[0].toInteger());
    status.nextStartMs = reply.elements[1].toInteger();
    status.pausedUntilMs = reply.elements[2].toInteger();
    status.breaker = QString::fromUtf8(reply.elements[3].text);
    status.breakerUntilMs = reply.elements[4].toInteger();
    status.starts = reply.elements[5].toInteger();
    status.queued = reply.elements[6].toInteger();
    status.serverNowMs = reply.elements[7].toInteger();
    status.breakerReason = breakerReasonOf(reply.elements[8].text);
    status.paceInFlight = static_cast<int>(reply.elements[9].toInteger(-1));
    status.paceGapMs = reply.elements[10].toInteger();
    status.paceReason = QString::fromUtf8(reply.elements[11].text);
    return status;
}

} // namespace crawl

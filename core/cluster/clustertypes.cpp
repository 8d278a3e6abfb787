#include "cluster/clustertypes.h"

#include "policy/hostbreaker.h"

namespace crawl {

QString breakerReasonOf(const QByteArray &stored) {
    const QList<QByteArray> parts = stored.split(' ');
    if (parts.size() != 4)
        return {};
    bool ok[4] = {};
    const int failures = parts[0].toInt(&ok[0]);
    const int count = parts[1].toInt(&ok[1]);
    const int dominant = parts[2].toInt(&ok[2]);
    const int trips = parts[3].toInt(&ok[3]);
    if (!(ok[0] && ok[1] && ok[2] && ok[3]) || dominant < 1 || dominant >= kAttemptHealthCount)
        return {};
    QString reason = HostBreaker::tripReason(failures, count, static_cast<AttemptHealth>(dominant));
    if (trips > 1)
        reason += QStringLiteral("; the probe failed too");
    return reason;
}

QByteArray clusterKeyPrefix(const QString &crawlName) {
    return QByteArrayLiteral("crawlscope:{") + crawlName.toUtf8() + QByteArrayLiteral("}:");
}

bool isValidCrawlName(const QString &name, QString *why) {
    const auto refuse = [why](const QString &reason) {
        if (why)
            *why = reason;
        return false;
    };
    if (name.isEmpty() || name.size() > 64)
        return refuse(QStringLiteral("a crawl name has 1 to 64 characters"));
    for (const QChar c : name) {
        const bool allowed = (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
                             (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) ||
                             (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('.') ||
                             c == QLatin1Char('_') || c == QLatin1Char('-');
        if (!allowed)
            return refuse(QStringLiteral("a crawl name may use only letters, digits, '.', '_' and '-'"));
    }
    return true;
}

bool isWorkerDead(const WorkerStatus &worker, qint64 nowMs, qint64 timeoutMs) {
    return nowMs - worker.lastHeartbeatMs > timeoutMs;
}

} // namespace crawl

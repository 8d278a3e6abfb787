#include "clusterflags.h"

namespace crawl {

const QStringList &clusterSharedLimitFlags() {
    static const QStringList flags = {QStringLiteral("per-host"),         QStringLiteral("interval-ms"),
                                      QStringLiteral("host-limit"),       QStringLiteral("retries"),
                                      QStringLiteral("jitter"),           QStringLiteral("max-rate"),
                                      QStringLiteral("breaker-window"),   QStringLiteral("breaker-threshold"),
                                      QStringLiteral("breaker-cooldown"), QStringLiteral("breaker-give-up"),
                                      QStringLiteral("adaptive"),         QStringLiteral("no-adaptive"),
                                      QStringLiteral("breaker"),          QStringLiteral("no-breaker")};
    return flags;
}

QString clusterWorkerFlagRefusal(const QStringList &explicitFlags) {
    static const QStringList workerFlags = {QStringLiteral("headless"),    QStringLiteral("worker"),
                                            QStringLiteral("cluster"),     QStringLiteral("crawl"),
                                            QStringLiteral("concurrency"), QStringLiteral("header")};
    static const QStringList outputs = {QStringLiteral("output"), QStringLiteral("summary-json")};
    const QStringList &sharedLimits = clusterSharedLimitFlags();
    for (const QString &flag : explicitFlags) {
        if (workerFlags.contains(flag))
            continue;
        if (outputs.contains(flag))
            return QStringLiteral("--%1 is not written by a --worker: its coordinator writes the results")
                .arg(flag);
        if (sharedLimits.contains(flag))
            return QStringLiteral("--%1 is a shared limit: set it on the coordinator, or change it for every "
                                  "worker with --cluster-set")
                .arg(flag);
        if (flag == QLatin1String("threads"))
            return QStringLiteral("--threads does not apply to a --worker (it fetches on one thread): start "
                                  "more workers instead");
        if (flag == QLatin1String("quiet"))
            return QStringLiteral("--quiet does not apply to a --worker: it prints no progress line, only "
                                  "what changes");
        return QStringLiteral("--%1 does not apply to a --worker: workers fetch with the flags their "
                              "coordinator stored in the crawl; give it to the coordinator")
            .arg(flag);
    }
    return {};
}

QString clusterCoordinatorFlagRefusal(const QStringList &explicitFlags) {
    // --max-rate, the breaker's settings (give-up included) and --adaptive are shared (ClusterLimits): every
    // worker applies them.
    for (const QString &flag : explicitFlags) {
        if (flag == QLatin1String("threads"))
            return QStringLiteral("--threads does not apply to a --cluster coordinator (it fetches nothing): "
                                  "start more workers instead");
    }
    return {};
}

} // namespace crawl

#include "demosettings.h"

#include <QtGlobal>

namespace demo {

DemoSettings demoSettings(DemoSettings base, const QStringList &keep) {
    crawl::CrawlLimits &l = base.limits;
    crawl::FetchPolicy &p = base.policy;
    const auto unless = [&keep](const char *flag, auto apply) {
        if (!keep.contains(QLatin1String(flag)))
            apply();
    };
    unless("concurrency", [&l] { l.globalInFlight = 32; });
    unless("per-host", [&l] { l.perHostInFlight = 4; });
    unless("interval-ms", [&l] { l.intervalMs = 100; });
    unless("timeout", [&p] { p.totalTimeoutS = 10; });
    unless("idle-timeout", [&p] { p.idleTimeoutS = 5; });
    unless("max-retry-after", [&p] { p.maxRetryAfterS = 5; });
    unless("backoff-ms", [&p] { p.backoffBaseMs = 200; });
    unless("max-bytes", [&p] { p.maxBodyBytes = 1 << 20; });
    return base;
}

QHash<QString, QString> demoHostLabels(const QList<QPair<QString, QString>> &profiles) {
    QHash<QString, QString> labels;
    for (const auto &[host, name] : profiles) {
        if (!host.isEmpty() && !name.isEmpty() && !labels.contains(host))
            labels.insert(host, name);
    }
    return labels;
}

double demoScale() {
    bool ok = false;
    const double scale = qEnvironmentVariable("CRAWLSCOPE_DEMO_SCALE").toDouble(&ok);
    return ok && scale > 0 ? scale : 1.0;
}

} // namespace demo

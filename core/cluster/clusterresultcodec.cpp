#include "cluster/clusterresultcodec.h"

#include <QTimeZone>

namespace crawl::ClusterResultCodec {

namespace {

QByteArray utf8(const QString &text) {
    return text.toUtf8();
}

QByteArray epochMs(const QDateTime &time) {
    return time.isValid() ? QByteArray::number(time.toMSecsSinceEpoch()) : QByteArray();
}

QDateTime fromEpochMs(const QByteArray &text) {
    bool ok = false;
    const qint64 ms = text.toLongLong(&ok);
    return ok ? QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC) : QDateTime();
}

qint64 number(const QMap<QByteArray, QByteArray> &fields, const char *name, qint64 fallback) {
    bool ok = false;
    const qint64 value = fields.value(name).toLongLong(&ok);
    return ok ? value : fallback;
}

QString text(const QMap<QByteArray, QByteArray> &fields, const char *name) {
    return QString::fromUtf8(fields.value(name));
}

QByteArray acceptedName(CrawlResult::Accepted accepted) {
    switch (accepted) {
    case CrawlResult::Accepted::Yes:
        return "yes";
    case CrawlResult::Accepted::No:
        return "no";
    case CrawlResult::Accepted::Unknown:
        break;
    }
    return {};
}

} // namespace

QList<QPair<QByteArray, QByteArray>> encode(const CrawlResult &r) {
    return {{"outcome", utf8(outcomeName(r.outcome))},
            {"status", QByteArray::number(r.status)},
            {"final_url", utf8(r.finalUrl)},
            {"host", utf8(r.host)},
            {"redirects", QByteArray::number(r.redirects)},
            {"bytes", QByteArray::number(r.bytes)},
            {"content_type", utf8(r.contentType)},
            {"latency_ms", QByteArray::number(r.latencyMs)},
            {"ttfb_ms", QByteArray::number(r.ttfbMs)},
            {"error", utf8(r.error)},
            {"started_at", epochMs(r.startedAt)},
            {"finished_at", epochMs(r.finishedAt)},
            {"chain", utf8(r.redirectChain.join(QLatin1Char('\n')))},
            {"warning", utf8(r.warning)},
            {"accepted", acceptedName(r.accepted)},
            {"reject_reason", utf8(r.rejectReason)},
            {"title", utf8(r.title)}};
}

CrawlResult decode(const QMap<QByteArray, QByteArray> &fields) {
    CrawlResult r;
    r.id = quint64(number(fields, "id", 0));
    r.lineNumber = number(fields, "line", 0);
    r.url = text(fields, "url");
    r.finalUrl = text(fields, "final_url");
    r.host = text(fields, "host");
    r.status = int(number(fields, "status", 0));
    r.outcome = outcomeFromName(text(fields, "outcome")).value_or(Outcome::NetworkError);
    r.attempts = int(number(fields, "attempts", 0));
    r.redirects = int(number(fields, "redirects", 0));
    r.bytes = number(fields, "bytes", 0);
    r.contentType = text(fields, "content_type");
    r.latencyMs = number(fields, "latency_ms", -1);
    r.ttfbMs = number(fields, "ttfb_ms", -1);
    r.error = text(fields, "error");
    if (r.outcome != Outcome::Ok && r.error.isEmpty())
        r.error = QStringLiteral("the worker gave no reason");
    r.startedAt = fromEpochMs(fields.value("started_at"));
    r.finishedAt = fromEpochMs(fields.value("finished_at"));
    const QString chain = text(fields, "chain");
    if (!chain.isEmpty())
        r.redirectChain = chain.split(QLatin1Char('\n'));
    r.warning = text(fields, "warning");
    const QByteArray accepted = fields.value("accepted");
    r.accepted = accepted == "yes"  ? CrawlResult::Accepted::Yes
                 : accepted == "no" ? CrawlResult::Accepted::No
                                    : CrawlResult::Accepted::Unknown;
    r.rejectReason = text(fields, "reject_reason");
    r.title = text(fields, "title");
    return r;
}

} // namespace crawl::ClusterResultCodec

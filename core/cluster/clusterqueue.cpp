#include "cluster/clusterqueue.h"

#include "cluster/clusterresultcodec.h"
#include "cluster/clusterscripts.h"
#include "cluster/redisconnection.h"

#include <cmath>

namespace crawl {

namespace {

QByteArray timeArg(std::optional<qint64> nowMs) {
    return QByteArray::number(nowMs.value_or(-1));
}

QString errorText(const RedisReply &reply) {
    return reply.isError() ? QString::fromUtf8(reply.text) : QStringLiteral("unexpected reply from Redis");
}

} // namespace

ClusterQueue::ClusterQueue(RedisConnection &connection, const QString &crawlName)
    : m_prefix(clusterKeyPrefix(crawlName))
    , m_crawlName(crawlName)
    , m_connection(connection) {}

bool ClusterQueue::createCrawl(const QMap<QString, QString> &settings) {
    QString why;
    if (!isValidCrawlName(m_crawlName, &why)) {
        m_lastError = why;
        return false;
    }
    QList<QByteArray> args{m_crawlName.toUtf8(), timeArg({})};
    for (auto it = settings.cbegin(); it != settings.cend(); ++it)
        args << it.key().toUtf8() << it.value().toUtf8();
    const RedisReply reply = m_connection.evalScript(ClusterScripts::createCrawl(), {m_prefix}, args);
    if (reply.isError()) {
        m_lastError = errorText(reply);
        return false;
    }
    if (reply.toInteger() != 1) {
        m_lastError =
            QStringLiteral("a crawl named \"%1\" already exists in this Redis database").arg(m_crawlName);
        return false;
    }
    return true;
}

bool ClusterQueue::crawlExists() {
    const RedisReply reply = m_connection.command({QByteArrayLiteral("EXISTS"), m_prefix + "meta"},
                                                  RedisConnection::Replay::AfterReconnect);
    if (reply.isError())
        m_lastError = errorText(reply);
    return !reply.isError() && reply.toInteger() == 1;
}

QStringList ClusterQueue::crawlNames(RedisConnection &connection, QString *error) {
    QStringList out;
    const RedisReply reply =
        connection.command({QByteArrayLiteral("SMEMBERS"), QByteArrayLiteral("crawlscope:crawls")},
                           RedisConnection::Replay::AfterReconnect);
    if (reply.isError()) {
        if (error)
            *error = errorText(reply);
        return out;
    }
    for (const RedisReply &name : reply.elements)
        out.append(QString::fromUtf8(name.text));
    out.sort();
    return out;
}

QMap<QString, QString> ClusterQueue::settings() {
    QMap<QString, QString> out;
    const RedisReply reply = m_connection.command({QByteArrayLiteral("HGETALL"), m_prefix + "meta"},
                                                  RedisConnection::Replay::AfterReconnect);
    if (reply.isError()) {
        m_lastError = errorText(reply);
        return out;
    }
    for (qsizetype i = 0; i + 1 < reply.elements.size(); i += 2) {
        const QByteArray &key = reply.elements[i].text;
        if (key.startsWith("s_"))
            out.insert(QString::fromUtf8(key.mid(2)), QString::fromUtf8(reply.elements[i + 1].text));
    }
    return out;
}

bool ClusterQueue::setSetting(const QString &key, const QString &value) {
    const RedisReply reply = m_connection.command(
        {QByteArrayLiteral("HSET"), m_prefix + "meta", "s_" + key.toUtf8(), value.toUtf8()},
        RedisConnection::Replay::AfterReconnect);
    if (reply.isError())
        m_lastError = errorText(reply);
    return !reply.isError();
}

EnqueueResult ClusterQueue::enqueue(const QList<ClusterUrl> &urls, const QByteArray &batchId,
                                    std::optional<qint64> nowMs) {
    QList<QByteArray> args{batchId, timeArg(nowMs)};
    args.reserve(2 + urls.size() * 4);
    for (const ClusterUrl &url : urls)
        args << url.url.toUtf8() << url.normalized.toUtf8() << url.host.toUtf8()
             << QByteArray::number(url.line);
    const RedisReply reply = m_connection.evalScript(ClusterScripts::enqueue(), {m_prefix}, args);
    EnqueueResult result;
    if (reply.isError() || reply.elements.size() != 2) {
        result.error = m_lastError = errorText(reply);
        return result;
    }
    result.added = static_cast<int>(reply.elements[0].toInteger());
    result.duplicates = static_cast<int>(reply.elements[1].toInteger());
    return result;
}

LeaseResult ClusterQueue::lease(const QByteArray &owner, const QByteArray &leaseId, qint64 leaseTtlMs,
                                std::optional<qint64> nowMs, int hostsToScan) {
    const RedisReply reply = m_connection.evalScript(
        ClusterScripts::lease(), {m_prefix},
        {owner, leaseId, QByteArray::number(leaseTtlMs), timeArg(nowMs), QByteArray::number(hostsToScan)});
    LeaseResult result;
    if (reply.isError() || reply.elements.isEmpty()) {
        result.error = m_lastError = errorText(reply);
        return result;
    }
    const QList<RedisReply> &e = reply.elements;
    if (e[0].toInteger() == 1 && e.size() == 11) {
        ClusterLease lease;
        lease.leaseId = leaseId;
        lease.urlId = e[1].toInteger();
        lease.url = QString::fromUtf8(e[2].text);
        lease.host = QString::fromUtf8(e[3].text);
        lease.attempts = static_cast<int>(e[4].toInteger());
        lease.line = e[5].toInteger();
        lease.expiresMs = e[6].toInteger();
        lease.hostInFlight = static_cast<int>(e[8].toInteger());
        lease.givenUp = e[9].toInteger() == 1;
        lease.skippedByUser = e[9].toInteger() == 2;
        if (lease.givenUp)
            lease.givenUpReason = breakerReasonOf(e[10].text);
        result.lease = lease;
        result.serverNowMs = e[7].toInteger();
    } else if (e.size() == 3) {
        result.askAgainAtMs = e[1].toInteger();
        result.serverNowMs = e[2].toInteger();
    } else {
        result.error = m_lastError = errorText(reply);
    }
    return result;
}

RenewResult ClusterQueue::renew(const QByteArray &owner, const QByteArray &leaseId, qint64 leaseTtlMs,
                                std::optional<qint64> nowMs) {
    const RedisReply reply =
        m_connection.evalScript(ClusterScripts::renewLease(), {m_prefix},
                                {owner, leaseId, QByteArray::number(leaseTtlMs), timeArg(nowMs)});
    RenewResult result;
    if (reply.isError() || reply.elements.size() != 2) {
        result.error = m_lastError = errorText(reply);
        return result;
    }
    result.renewed = reply.elements[0].toInteger() == 1;
    if (result.renewed)
        result.expiresMs = reply.elements[1].toInteger();
    else
        result.refusal = QString::fromUtf8(reply.elements[1].text);
    return result;
}

AckResult ClusterQueue::acknowledge(const QByteArray &owner, const QByteArray &leaseId,
                                    const QList<QPair<QByteArray, QByteArray>> &resultFields,
                                    std::optional<qint64> nowMs, RequestSent sent) {
    QList<QByteArray> args{owner, leaseId, timeArg(nowMs), sent == RequestSent::Yes ? "1" : "0"};
    for (const auto &[name, value] : resultFields)
        args << name << value;
    const RedisReply reply = m_connection.evalScript(ClusterScripts::acknowledge(), {m_prefix}, args);
    AckResult result;
    if (reply.isError() || reply.elements.size() != 2) {
        result.error = m_lastError = errorText(reply);
        return result;
    }
    result.accepted = reply.elements[0].toInteger() == 1;
    if (result.accepted)
        result.streamId = reply.elements[1].text;
    else
        result.refusal = QString::fromUtf8(reply.elements[1].text);
    return result;
}

int ClusterQueue::addInputRows(const QList<CrawlResult> &rows) {
    QList<QByteArray> args{timeArg({})};
    for (const CrawlResult &row : rows) {
        QList<QPair<QByteArray, QByteArray>> fields = ClusterResultCodec::encode(row);
        fields.append({"url", row.url.toUtf8()});
        args << QByteArray::number(row.lineNumber) << QByteArray::number(fields.size() * 2);
        for (const auto &[name, value] : std::as_const(fields))
            args << name << value;
    }
    const RedisReply reply = m_connection.evalScript(ClusterScripts::addInputRows(), {m_prefix}, args);
    if (reply.isError()) {
        m_lastError = errorText(reply);
        return -1;
    }
    return static_cast<int>(reply.toInteger());
}

RenewResult ClusterQueue::retryLater(const QByteArray &owner, const QByteArray &leaseId, qint64 notBeforeMs,
                                     std::optional<qint64> nowMs) {
    return endLease(owner, leaseId, notBeforeMs, true, nowMs, RequestSent::Yes);
}

RenewResult ClusterQueue::giveBack(const QByteArray &owner, const QByteArray &leaseId,
                                   std::optional<qint64> nowMs, RequestSent sent) {
    return endLease(owner, leaseId, 0, false, nowMs, sent);
}

RenewResult ClusterQueue::giveBackUntil(const QByteArray &owner, const QByteArray &leaseId,
                                        qint64 notBeforeMs, std::optional<qint64> nowMs) {
    return endLease(owner, leaseId, notBeforeMs, false, nowMs, RequestSent::No);
}

RenewResult ClusterQueue::endLease(const QByteArray &owner, const QByteArray &leaseId, qint64 notBeforeMs,
                                   bool attempted, std::optional<qint64> nowMs, RequestSent sent) {
    const RedisReply reply =
        m_connection.evalScript(ClusterScripts::retryLater(), {m_prefix},
                                {owner, leaseId, QByteArray::number(notBeforeMs), timeArg(nowMs),
                                 attempted ? "1" : "0", sent == RequestSent::Yes ? "1" : "0"});
    RenewResult result;
    if (reply.isError() || reply.elements.isEmpty()) {
        result.error = m_lastError = errorText(reply);
        return result;
    }
    result.renewed = reply.elements[0].toInteger() == 1;
    if (!result.renewed && reply.elements.size() > 1)
        result.refusal = QString::fromUtf8(reply.elements[1].text);
    return result;
}

int ClusterQueue::expireLeases(int limit, std::optional<qint64> nowMs) {
    const RedisReply reply = m_connection.evalScript(ClusterScripts::expireLeases(), {m_prefix},
                                                     {timeArg(nowMs), QByteArray::number(limit)});
    if (reply.isError()) {
        m_lastError = errorText(reply);
        return -1;
    }
    return static_cast<int>(reply.toInteger());
}

bool ClusterQueue::heartbeat(const QByteArray &workerId, int inFlight, double requestsPerSecond,
                             std::optional<qint64> nowMs) {
    const auto milliRate = static_cast<qint64>(std::llround(requestsPerSecond * 1000.0));
    const RedisReply reply = m_connection.evalScript(
        ClusterScripts::heartbeat(), {m_prefix},
        {workerId, QByteArray::number(inFlight), QByteArray::number(milliRate), timeArg(nowMs)});
    if (reply.isError())
        m_lastError = errorText(reply);
    return !reply.isError();
}

QList<WorkerStatus> ClusterQueue::workers(qint64 *serverNowMs) {
    QList<WorkerStatus> out;
    const RedisReply reply = m_connection.evalScript(ClusterScripts::workers(), {m_prefix}, {timeArg({})});
    if (reply.isError() || reply.elements.isEmpty()) {
        m_lastError = errorText(reply);
        return out;
    }
    if (serverNowMs)
        *serverNowMs = reply.elements[0].toInteger();
    for (qsizetype i = 1; i + 3 < reply.elements.size(); i += 4) {
        WorkerStatus worker;
        worker.id = QString::fromUtf8(reply.elements[i].text);
        worker.inFlight = static_cast<int>(reply.elements[i + 1].toInteger());
        worker.requestsPerSecond = static_cast<double>(reply.elements[i + 2].toInteger()) / 1000.0;
        worker.lastHeartbeatMs = reply.elements[i + 3].toInteger();
        out.append(worker);
    }
    return out;
}

QList<ClusterResultRecord> ClusterQueue::readResults(const QByteArray &afterStreamId, int count) {
    QList<ClusterResultRecord> out;
    // "(" makes the start exclusive (Redis 6.2+): the entry already read is not returned again.
    const QByteArray start = afterStreamId.isEmpty() ? QByteArrayLiteral("-") : '(' + afterStreamId;
    const RedisReply reply =
        m_connection.command({QByteArrayLiteral("XRANGE"), m_prefix + "results", start,
                              QByteArrayLiteral("+"), QByteArrayLiteral("COUNT"), QByteArray::number(count)},
                             RedisConnection::Replay::AfterReconnect);
    if (reply.isError()) {
        m_lastError = errorText(reply);
        return out;
    }
    for (const RedisReply &entry : reply.elements) {
        if (entry.elements.size() != 2)
            continue;
        ClusterResultRecord record;
        record.streamId = entry.elements[0].text;
        const QList<RedisReply> &fields = entry.elements[1].elements;
        for (qsizetype i = 0; i + 1 < fields.size(); i += 2)
            record.fields.insert(fields[i].text, fields[i + 1].text);
        out.append(record);
    }
    return out;
}

qint64 ClusterQueue::trimResults(const QByteArray &upToStreamId) {
    // MINID keeps entries >= the id: the next possible id after upToStreamId ("ms-seq" -> "ms-(seq+1)").
    const qsizetype dash = upToStreamId.indexOf('-');
    bool ok = dash > 0;
    const qint64 ms = ok ? upToStreamId.left(dash).toLongLong(&ok) : 0;
    const qint64 seq = ok ? upToStreamId.mid(dash + 1).toLongLong(&ok) : 0;
    if (!ok) {
        m_lastError = QStringLiteral("not a stream id: %1").arg(QString::fromUtf8(upToStreamId));
        return -1;
    }
    const QByteArray minId = QByteArray::number(ms) + '-' + QByteArray::number(seq + 1);
    // The script keeps whatever a watching window (markReader) has not read yet.
    const RedisReply reply =
        m_connection.evalScript(ClusterScripts::trimResults(), {m_prefix}, {minId, timeArg({})});
    if (reply.isError()) {
        m_lastError = errorText(reply);
        return -1;
    }
    return reply.toInteger();
}

bool ClusterQueue::markReader(const QByteArray &readerId, const QByteArray &lastStreamId, qint64 ttlMs,
                              std::optional<qint64> nowMs) {
    const RedisReply reply =
        m_connection.evalScript(ClusterScripts::markReader(), {m_prefix},
                                {readerId, lastStreamId.isEmpty() ? QByteArrayLiteral("0-0") : lastStreamId,
                                 QByteArray::number(ttlMs), timeArg(nowMs)});
    if (reply.isError())
        m_lastError = errorText(reply);
    return !reply.isError();
}

bool ClusterQueue::dropReader(const QByteArray &readerId) {
    const RedisReply reply = m_connection.command({QByteArrayLiteral("HDEL"), m_prefix + "readers", readerId},
                                                  RedisConnection::Replay::AfterReconnect);
    if (reply.isError())
        m_lastError = errorText(reply);
    return !reply.isError();
}

QList<ClusterHostRow> ClusterQueue::hostsPage(const QByteArray &cursor, int count, QByteArray *nextCursor,
                                              std::optional<qint64> nowMs) {
    QList<ClusterHostRow> out;
    const RedisReply reply = m_connection.evalScript(ClusterScripts::hostsPage(), {m_prefix},
                                                     {cursor, QByteArray::number(count), timeArg(nowMs)});
    if (reply.isError() || reply.elements.isEmpty()) {
        m_lastError = errorText(reply);
        if (nextCursor)
            *nextCursor = QByteArrayLiteral("0");
        return out;
    }
    if (nextCursor)
        *nextCursor = reply.elements[0].text;
    for (qsizetype i = 1; i + 14 < reply.elements.size(); i += 15) {
        ClusterHostRow row;
        row.host = QString::fromUtf8(reply.elements[i].text);
        row.status.inFlight = static_cast<int>(reply.elements[i + 1].toInteger());
        row.status.queued = reply.elements[i + 2].toInteger();
        row.status.nextStartMs = reply.elements[i + 3].toInteger();
        row.status.pausedUntilMs = reply.elements[i + 4].toInteger();
        row.status.breaker = QString::fromUtf8(reply.elements[i + 5].text);
        row.status.breakerUntilMs = reply.elements[i + 6].toInteger();
        row.status.starts = reply.elements[i + 7].toInteger();
        row.status.breakerReason = breakerReasonOf(reply.elements[i + 8].text);
        row.overrideInFlight = static_cast<int>(reply.elements[i + 9].toInteger());
        row.overrideIntervalMs = reply.elements[i + 10].toInteger();
        row.status.paceInFlight = static_cast<int>(reply.elements[i + 11].toInteger(-1));
        row.status.paceGapMs = reply.elements[i + 12].toInteger();
        row.status.paceReason = QString::fromUtf8(reply.elements[i + 13].text);
        const qint64 byUser = reply.elements[i + 14].toInteger();
        row.status.pausedByUser = (byUser & 1) != 0;
        row.status.skippedByUser = (byUser & 2) != 0;
        out.append(row);
    }
    return out;
}

ClusterCounts ClusterQueue::counts() {
    ClusterCounts out;
    const RedisReply reply = m_connection.command({QByteArrayLiteral("HGETALL"), m_prefix + "counts"},
                                                  RedisConnection::Replay::AfterReconnect);
    if (reply.isError()) {
        out.error = m_lastError = errorText(reply);
        return out;
    }
    for (qsizetype i = 0; i + 1 < reply.elements.size(); i += 2) {
        const QByteArray &key = reply.elements[i].text;
        const qint64 value = reply.elements[i + 1].toInteger();
        if (key == "enqueued")
            out.enqueued = value;
        else if (key == "inputrows")
            out.inputRows = value;
        else if (key == "duplicates")
            out.duplicates = value;
        else if (key == "queued")
            out.queued = value;
        else if (key == "leased")
            out.leased = value;
        else if (key == "delayed")
            out.delayed = value;
        else if (key == "done")
            out.done = value;
        else if (key == "expired")
            out.expired = value;
    }
    return out;
}

} // namespace crawl

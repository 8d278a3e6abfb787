#include "siterecorder.h"

#include "httpformat.h"

#include <QMutexLocker>

namespace testsite {

ObservedHost *SiteRecorder::addHost(const QString &name) {
    QMutexLocker lock(&m_mutex);
    auto host = std::make_unique<ObservedHost>();
    host->name = name;
    host->record.host = name;
    ObservedHost *raw = host.get();
    m_hosts[name] = std::move(host);
    m_hostNames.append(name);
    return raw;
}

SiteRecorder::Ticket SiteRecorder::begin(ObservedHost *host, const QByteArray &target, RequestRecord record,
                                         int fail, bool *failing) {
    QMutexLocker lock(&m_mutex);
    Ticket t;
    t.counted = true;
    t.generation = m_generation;
    HostRecord &r = host->record;
    ++r.requests;
    ++r.inFlight;
    r.peakInFlight = qMax(r.peakInFlight, r.inFlight);
    if (fail > 0) {
        const int hit = ++host->failHits[target];
        *failing = hit <= fail;
    } else {
        *failing = false;
    }
    if (m_maxRecords < 0 || m_records.size() < m_maxRecords) {
        record.host = host->name;
        t.index = m_records.size();
        m_records.append(std::move(record));
    }
    return t;
}

bool SiteRecorder::setRobots(const QString &host, const RobotsTxt &robots) {
    QMutexLocker lock(&m_mutex);
    const auto it = m_hosts.find(host);
    if (it == m_hosts.end())
        return false;
    it->second->robots = robots;
    return true;
}

std::optional<RobotsTxt> SiteRecorder::robots(const ObservedHost *host) const {
    QMutexLocker lock(&m_mutex);
    return host->robots;
}

void SiteRecorder::setStatus(const Ticket &ticket, int status) {
    if (!ticket.counted)
        return;
    QMutexLocker lock(&m_mutex);
    if (ticket.generation == m_generation && ticket.index >= 0)
        m_records[ticket.index].status = status;
}

int SiteRecorder::admitTolerant(ObservedHost *host, const HostTolerance &tolerance, Ticket *ticket) {
    QMutexLocker lock(&m_mutex);
    if (!ticket->counted || ticket->toleranceSlot || !tolerance.admits(host->toleranceServing))
        return 0;
    ticket->toleranceSlot = true;
    return ++host->toleranceServing;
}

void SiteRecorder::end(ObservedHost *host, const Ticket &ticket, int status, qint64 endNs,
                       bool clientClosed) {
    if (!ticket.counted)
        return;
    QMutexLocker lock(&m_mutex);
    if (ticket.toleranceSlot)
        host->toleranceServing = qMax(0, host->toleranceServing - 1);
    host->record.inFlight = qMax(0, host->record.inFlight - 1);
    if (ticket.generation == m_generation && ticket.index >= 0) {
        RequestRecord &r = m_records[ticket.index];
        r.endNs = endNs;
        r.status = status;
        r.clientClosed = clientClosed;
    }
}

void SiteRecorder::connectionOpened(ObservedHost *host) {
    QMutexLocker lock(&m_mutex);
    ++host->record.openConnections;
    ++host->record.connections;
}

void SiteRecorder::connectionClosed(ObservedHost *host) {
    QMutexLocker lock(&m_mutex);
    host->record.openConnections = qMax(0, host->record.openConnections - 1);
}

void SiteRecorder::reset() {
    QMutexLocker lock(&m_mutex);
    ++m_generation;
    m_records.clear();
    for (auto &[name, host] : m_hosts) {
        host->record.requests = 0;
        host->record.peakInFlight = host->record.inFlight;
        host->record.connections = host->record.openConnections;
        host->failHits.clear();
    }
}

QByteArray SiteRecorder::json(const QString &only, bool includeRequests, bool includeHeaders) const {
    QMutexLocker lock(&m_mutex);
    QByteArray out;
    out.reserve(256 + (includeRequests ? m_records.size() * 200 : 0));
    out.append("{\"hosts\":[");
    bool first = true;
    for (const QString &name : m_hostNames) {
        if (!only.isEmpty() && name != only)
            continue;
        const HostRecord &r = m_hosts.at(name)->record;
        if (!first)
            out.append(',');
        first = false;
        out.append("{\"host\":");
        appendJsonString(out, r.host.toUtf8());
        out.append(",\"inFlight\":").append(QByteArray::number(r.inFlight));
        out.append(",\"peakInFlight\":").append(QByteArray::number(r.peakInFlight));
        out.append(",\"requests\":").append(QByteArray::number(r.requests));
        out.append(",\"openConnections\":").append(QByteArray::number(r.openConnections));
        out.append(",\"connections\":").append(QByteArray::number(r.connections)).append('}');
    }
    out.append(']');
    if (includeRequests) {
        out.append(",\"requests\":[");
        first = true;
        for (const RequestRecord &rec : m_records) {
            if (!only.isEmpty() && rec.host != only)
                continue;
            if (!first)
                out.append(',');
            first = false;
            out.append("\n{\"host\":");
            appendJsonString(out, rec.host.toUtf8());
            out.append(",\"target\":");
            appendJsonString(out, rec.target.toUtf8());
            out.append(",\"startNs\":").append(QByteArray::number(rec.startNs));
            out.append(",\"endNs\":").append(QByteArray::number(rec.endNs));
            out.append(",\"status\":").append(QByteArray::number(rec.status));
            out.append(",\"connectionId\":").append(QByteArray::number(rec.connectionId));
            out.append(",\"userAgent\":");
            appendJsonString(out, rec.userAgent);
            out.append(",\"method\":");
            appendJsonString(out, rec.method);
            out.append(",\"clientClosed\":").append(rec.clientClosed ? "true" : "false");
            if (includeHeaders) {
                out.append(",\"headers\":[");
                bool firstHeader = true;
                for (const auto &[name, value] : rec.headers()) {
                    out.append(firstHeader ? "[" : ",[");
                    firstHeader = false;
                    appendJsonString(out, name);
                    out.append(',');
                    appendJsonString(out, value);
                    out.append(']');
                }
                out.append(']');
            }
            out.append('}');
        }
        out.append(']');
    }
    out.append("}\n");
    return out;
}

QStringList SiteRecorder::hostNames() const {
    QMutexLocker lock(&m_mutex);
    return m_hostNames;
}

HostRecord SiteRecorder::hostRecord(const QString &host) const {
    QMutexLocker lock(&m_mutex);
    const auto it = m_hosts.find(host);
    if (it == m_hosts.end()) {
        HostRecord r;
        r.host = host;
        return r;
    }
    return it->second->record;
}

QList<RequestRecord> SiteRecorder::requests(const QString &host) const {
    QMutexLocker lock(&m_mutex);
    if (host.isEmpty())
        return m_records;
    QList<RequestRecord> out;
    for (const RequestRecord &r : std::as_const(m_records)) {
        if (r.host == host)
            out.append(r);
    }
    return out;
}

qint64 SiteRecorder::totalRequests() const {
    QMutexLocker lock(&m_mutex);
    qint64 n = 0;
    for (const auto &[name, host] : m_hosts)
        n += host->record.requests;
    return n;
}

void SiteRecorder::setMaxRecords(qint64 maxRecords) {
    QMutexLocker lock(&m_mutex);
    m_maxRecords = maxRecords;
}

} // namespace testsite

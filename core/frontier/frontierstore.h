#pragma once

#include "model/outcome.h"
#include "store/storetypes.h"

#include <QList>
#include <QMap>
#include <QString>

#include <array>
#include <memory>
#include <optional>

namespace crawl {

class StoreBackup;

// The durable side of the frontier: where a crawl's URLs wait, which of them may start, and where their
// outcomes are acknowledged. The engine's frontier thread (FrontierService) drives one of these and keeps
// nothing but in-flight work and a chunk per active host in memory.
//
// CrawlStore (one SQLite file) implements it for one machine. A shared, multi-machine frontier (Redis)
// implements the same calls with leases that expire when a worker dies: that is why starting work is a
// lease with an owner and a deadline, and why an outcome counts only once recordResults() returns.
//
// Like CrawlStore, an implementation is used from one thread only.
class FrontierStore {
public:
    virtual ~FrontierStore() = default;

    virtual QString path() const = 0; // where it lives, for messages
    virtual QString durability() = 0;
    virtual StoreError lastError() const = 0;
    virtual QMap<QString, QString> settings() = 0;
    virtual bool setSettings(const QMap<QString, QString> &values) = 0;

    // Input, in input order. Invalid lines finish at once (their rows come back in invalidRows).
    virtual bool appendInput(const QList<StoreInputLine> &lines, qint64 nowMs, AppendOutcome *outcome,
                             QList<CrawlResult> *invalidRows) = 0;
    virtual qint64 lastInputLine() = 0; // the highest input line stored (0: none), to continue reading

    // Work: hosts with an entry that may start by `now`, and a host's due entries, oldest first.
    virtual QList<EligibleHost> hostsWithEligibleWork(qint64 nowMs, int limit) = 0;
    virtual QList<PendingEntry> nextChunkForHost(const QString &hostKey, int limit, qint64 nowMs) = 0;
    virtual qint64 nextEligibleAtMs() = 0; // -1 when nothing waits
    // Leases entries to `owner`; only leased entries are ever fetched, so no entry is handed out twice.
    // Attempts are counted as they start (ResultBatch::started), not when leased.
    virtual qint64 markInFlight(const QList<qint64> &ids, const QString &owner, qint64 leaseUntilMs) = 0;
    virtual bool releaseLeases(const QList<ReleasedLease> &leases) = 0;
    virtual qint64 reclaimInFlight() = 0;
    virtual qint64 reclaimExpiredLeases(qint64 nowMs) = 0;

    // Outcomes: returns once they are durable (acknowledge after commit).
    virtual bool recordResults(const ResultBatch &batch) = 0;
    virtual qint64 requeueFinished(const QList<qint64> &ids, qint64 nowMs) = 0;

    // Tallies and rows.
    virtual StoreCounts counts() = 0;
    virtual std::array<qint64, kOutcomeCount> outcomeCounts() = 0;
    virtual std::optional<HostRecord> hostRecord(const QString &hostKey) = 0;
    virtual QList<CrawlResult> rowsPage(qint64 afterId, int limit, RowFilter filter) = 0;

    // A consistent copy of the whole crawl at `target` ("Save Crawl As"), made step by step (see
    // StoreBackup); replaces an existing target only once the copy is complete. Null with *error (not
    // lastError(): it is not the crawl's failure) when it cannot start.
    virtual std::unique_ptr<StoreBackup> startBackup(const QString &target, QString *error) = 0;
};

} // namespace crawl

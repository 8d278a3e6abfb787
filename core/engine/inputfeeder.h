#pragma once

#include "engine/enginecontext.h"
#include "input/inputsource.h"
#include "input/urllistreader.h"

#include <QObject>
#include <QTimer>

#include <atomic>
#include <memory>

namespace crawl {

// Streams the input list on its own thread: normalizes, deduplicates, turns bad lines into invalid_url
// results, and hands valid URLs to the shard that owns their host. It reads ahead only while fewer than
// kMaxBuffered URLs wait in the shards, so a million-line list never becomes a million queued jobs.
class InputFeeder : public QObject {
    Q_OBJECT
public:
    static constexpr qint64 kMaxBuffered = 20'000;

    InputFeeder(EngineContext *context, std::unique_ptr<QIODevice> device, InputSource::Kind kind,
                QString path);
    ~InputFeeder() override;

    void begin();    // in the feeder thread
    void abandon();  // thread-safe: stop reading now, emit nothing more (engine teardown)
    void readSome(); // in the feeder thread: reads the next slice (after a stop: the rest, as cancelled)

    // Read by the façade (any thread).
    std::atomic<bool> reachedEnd{false};
    std::atomic<qint64> produced{0}; // rows this input will yield: distinct valid URLs + invalid lines
    std::atomic<qint64> duplicates{0};
    std::atomic<qint64> invalid{0};
    std::atomic<qint64> estimatedRows{-1}; // quick pre-count; -1 when unknown (stdin)
    QString readError;                     // set before reachedEnd when reading failed

private:
    void estimate();

    EngineContext *m_context;
    std::unique_ptr<QIODevice> m_device;
    InputSource::Kind m_kind;
    QString m_path;
    std::unique_ptr<UrlListReader> m_reader;
    UrlDeduplicator m_seen;
    quint64 m_nextId = 1;
    std::atomic<bool> m_abandoned{false};
    QTimer m_backpressureTimer;
};

} // namespace crawl

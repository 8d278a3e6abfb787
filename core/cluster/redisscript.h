#pragma once

#include <QByteArray>

namespace crawl {

// A Lua script and its SHA1, the name EVALSHA runs it by. Redis forgets scripts on restart (and SCRIPT
// FLUSH), so the connection falls back to EVAL (which caches it again) when the server answers NOSCRIPT.
class RedisScript {
public:
    explicit RedisScript(QByteArray source);

    const QByteArray &source() const { return m_source; }
    const QByteArray &sha1() const { return m_sha1; } // lower-case hex, as Redis names it

private:
    QByteArray m_source;
    QByteArray m_sha1;
};

} // namespace crawl

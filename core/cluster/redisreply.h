#pragma once

#include <QByteArray>
#include <QList>

namespace crawl {

// One Redis reply as a value type (copied out of hiredis' reply tree), so it can outlive the connection and
// cross threads.
struct RedisReply {
    enum class Kind {
        Nil,
        Integer,
        String,          // bulk string
        Status,          // "+OK"
        Array,           // elements
        ServerError,     // "-ERR ..." from Redis: the command ran and was refused; text holds the message
        ConnectionError, // no answer: connect, AUTH, I/O or timeout failure; text says which (no password)
    };

    Kind kind = Kind::Nil;
    long long integer = 0;
    QByteArray text;
    QList<RedisReply> elements;

    bool isError() const { return kind == Kind::ServerError || kind == Kind::ConnectionError; }
    bool isNil() const { return kind == Kind::Nil; }
    // Integer replies as numbers, and bulk strings holding digits (what Lua tostring() gives back) too.
    long long toInteger(long long fallback = 0) const {
        if (kind == Kind::Integer)
            return integer;
        if (kind == Kind::String || kind == Kind::Status) {
            bool ok = false;
            const long long value = text.toLongLong(&ok);
            return ok ? value : fallback;
        }
        return fallback;
    }

    static RedisReply connectionError(const QByteArray &why) { return {Kind::ConnectionError, 0, why, {}}; }
};

} // namespace crawl

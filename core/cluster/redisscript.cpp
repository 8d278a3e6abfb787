#include "cluster/redisscript.h"

#include <QCryptographicHash>

namespace crawl {

RedisScript::RedisScript(QByteArray source)
    : m_source(std::move(source))
    , m_sha1(QCryptographicHash::hash(m_source, QCryptographicHash::Sha1).toHex()) {}

} // namespace crawl

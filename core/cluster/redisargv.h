#pragma once

#include <QByteArray>
#include <QList>

#include <cstddef>
#include <vector>

namespace crawl {

// A command's arguments as hiredis' *Argv calls take them (redisCommandArgv, redisFormatCommandArgv):
// pointers into `args` and their lengths, so binary values pass unchanged. Borrows: `args` must outlive it.
class RedisArgv {
public:
    explicit RedisArgv(const QList<QByteArray> &args) {
        m_argv.reserve(static_cast<size_t>(args.size()));
        m_lengths.reserve(static_cast<size_t>(args.size()));
        for (const QByteArray &arg : args) {
            m_argv.push_back(arg.constData());
            m_lengths.push_back(static_cast<size_t>(arg.size()));
        }
    }
    int count() const { return static_cast<int>(m_argv.size()); }
    const char **argv() { return m_argv.data(); }
    const size_t *lengths() const { return m_lengths.data(); }

private:
    std::vector<const char *> m_argv;
    std::vector<size_t> m_lengths;
};

} // namespace crawl

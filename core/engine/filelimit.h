#pragma once

#include <atomic>

namespace crawl {

// Raises the soft RLIMIT_NOFILE to the hard limit (every connection is a descriptor; the usual soft
// 1024 is far below what a many-host crawl needs). Returns the soft limit in force afterwards.
long raiseOpenFileLimit();

// A few descriptors held back from the start (on /dev/null) and given up the first time the crawl runs
// out: Qt and glib need some for their own pipes and threads (glib aborts when it cannot get one), and
// by then the engine holds fewer requests in flight.
class DescriptorReserve {
public:
    explicit DescriptorReserve(int count);
    ~DescriptorReserve();
    DescriptorReserve(const DescriptorReserve &) = delete;
    DescriptorReserve &operator=(const DescriptorReserve &) = delete;

    void release(); // thread-safe; only the first call closes them

private:
    static constexpr int kMax = 32;
    int m_fds[kMax];
    int m_count = 0;
    std::atomic<bool> m_released{false};
};

} // namespace crawl

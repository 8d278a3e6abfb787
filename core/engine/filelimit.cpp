#include "engine/filelimit.h"

#include <algorithm>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

namespace crawl {

long raiseOpenFileLimit() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return -1;
    if (limit.rlim_cur < limit.rlim_max) {
        rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0)
            limit = raised;
    }
    return limit.rlim_cur == RLIM_INFINITY ? -1 : long(limit.rlim_cur);
}

DescriptorReserve::DescriptorReserve(int count) {
    count = std::clamp(count, 0, kMax);
    while (m_count < count) {
        const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            break;
        m_fds[m_count++] = fd;
    }
}

DescriptorReserve::~DescriptorReserve() {
    release();
}

void DescriptorReserve::release() {
    if (m_released.exchange(true))
        return;
    for (int i = 0; i < m_count; ++i)
        ::close(m_fds[i]);
}

} // namespace crawl

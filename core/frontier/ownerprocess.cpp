#include "frontier/ownerprocess.h"

#include <cerrno>
#include <csignal>
#include <limits>
#include <sys/types.h>

namespace crawl {

bool isProcessAlive(qint64 pid) {
    if (pid <= 0 || pid > qint64(std::numeric_limits<pid_t>::max()))
        return false;
    // Signal 0 checks existence only; EPERM means it exists but belongs to another user.
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

} // namespace crawl

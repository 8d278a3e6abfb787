#pragma once

namespace crawl {

// Raises the soft RLIMIT_NOFILE to the hard limit (every connection is a descriptor; the usual soft
// 1024 is far below what a many-host crawl needs). Returns the soft limit in force afterwards.
long raiseOpenFileLimit();

} // namespace crawl

#pragma once

#include <QtGlobal>

namespace crawl {

// Whether a process with this id runs on this machine (any user's). A crawl file or temporary journal
// names its owner's pid: while the owner lives, nobody else may take it over or delete it.
bool isProcessAlive(qint64 pid);

} // namespace crawl

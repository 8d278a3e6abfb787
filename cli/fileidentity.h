#pragma once

#include <QString>

#include <sys/types.h>

namespace crawl {

// Which file a command-line path names, so two paths that reach the same file (a symlink, "./x", a hard
// link, /dev/stdout) are recognised as one. "-" is the given standard stream. A path that does not exist
// yet is compared by its canonical folder and name.
struct FileIdentity {
    bool exists = false;
    bool regular = false; // a regular file (not a FIFO, device, socket or folder)
    bool directory = false;
    bool pipe = false; // a FIFO or a socket: what two writers would interleave into
    dev_t device = 0;
    ino_t inode = 0;
    QString absentPath; // canonical folder + name when !exists

    static FileIdentity ofPath(const QString &path, int streamFd); // streamFd: fd for "-"
    // The same regular file, or the same not-yet-existing path; with pipesToo also the same FIFO or socket
    // (two outputs mixed into one stream). One terminal or /dev/null used twice is never a clash.
    bool clashesWith(const FileIdentity &other, bool pipesToo = false) const;
};

} // namespace crawl

#pragma once

#include <QString>

#include <memory>

namespace ui {

// An unnamed, private file that the results store writes full chunks (texts, rows) to and reads them back
// from, so a million rows cost disk rather than RAM.
//
// O_TMPFILE where the file system has it, else a named file unlinked at once: either way nothing is left
// behind when the process ends, however it ends, and only this user can read it (0600). Written only by
// its owner, and only past its end; the bytes once written never change, so a snapshot read on another
// thread (the CSV export) shares the file through a duplicated descriptor.
class SpillFile {
public:
    // A new unnamed file in `directory` (created if missing), or nullptr with the reason in `error`. `what`
    // names it in messages ("texts", "rows").
    static std::unique_ptr<SpillFile> create(const QString &directory, const QString &what, QString *error);
    ~SpillFile();
    SpillFile(const SpillFile &) = delete;
    SpillFile &operator=(const SpillFile &) = delete;

    // Another descriptor of the same file, for a snapshot; nullptr when none is left (EMFILE).
    std::unique_ptr<SpillFile> duplicate() const;
    // A new, empty file of the same kind in the same folder (a store cleared for a new crawl: a snapshot
    // being exported still reads this one), or nullptr with the reason.
    std::unique_ptr<SpillFile> another(QString *error) const { return create(m_folder, m_what, error); }

    // Writes `size` bytes at the end of the file: where they start, or -1 with the reason (disk full).
    qint64 append(const char *data, size_t size, QString *error);
    // Reads `size` bytes written at `offset`; false with the reason when they cannot be read back
    // (the file truncated under us, an I/O error).
    bool read(qint64 offset, char *into, size_t size, QString *error) const;
    qint64 size() const { return m_size; }

private:
    SpillFile(int fd, qint64 size, const QString &what, const QString &folder);
    int m_fd = -1;
    qint64 m_size = 0;
    QString m_what;
    QString m_folder; // named in messages: what a user must free or fix
};

} // namespace ui

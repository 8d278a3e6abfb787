#pragma once

#include <QString>

#include <memory>

class QFile;
class QIODevice;
class QSaveFile;

namespace crawl {

// One place the run writes to: "-" (standard output), a regular file (new or existing), or anything else
// that can be opened for writing (a FIFO, /dev/null, /dev/stdout, a terminal).
//
// A regular file is written to a temporary file in the same folder and renamed over it by commit(), so
// an interrupted, failed or refused run leaves the previous file as it was (a symlink is followed and
// its target replaced). Anything else is written directly: renaming over /dev/null or a FIFO would
// replace the node with a regular file. Destroying an uncommitted OutputFile removes its temporary file.
class OutputFile {
public:
    explicit OutputFile(QString path);
    ~OutputFile();
    OutputFile(const OutputFile &) = delete;
    OutputFile &operator=(const OutputFile &) = delete;

    bool open(QString *error);
    QIODevice *device() const;
    bool commit(QString *error); // rename into place, or flush a direct target
    void discard();              // drop the temporary file now (before an immediate exit)

    QString path() const { return m_path; }
    bool isStdout() const;
    QString displayName() const; // "standard output" or the path

private:
    QString m_path;
    std::unique_ptr<QSaveFile> m_temporary;
    std::unique_ptr<QFile> m_direct;
};

} // namespace crawl

#pragma once

#include <QByteArray>
#include <QMetaType>
#include <QString>

#include <memory>

class QIODevice;

namespace crawl {

// Where a URL list comes from. The engine opens it on its own thread and streams it line by line.
struct InputSource {
    enum class Kind : quint8 { File, Stdin, Text };
    Kind kind = Kind::Text;
    QString path;    // Kind::File
    QByteArray text; // Kind::Text (pasted or generated lists), UTF-8

    static InputSource fromFile(const QString &path) { return {Kind::File, path, {}}; }
    static InputSource fromStdin() { return {Kind::Stdin, {}, {}}; }
    static InputSource fromText(const QByteArray &utf8) { return {Kind::Text, {}, utf8}; }

    QString displayName() const;
    // Checks that a file source can be read, without opening it (so a bad path is reported before any
    // output is touched). Standard input and text always pass.
    bool check(QString *error) const;
    // Opens the source for reading; on failure returns null and sets *error to a sentence naming it.
    // A pipe, FIFO or terminal (standard input or a path) gives a StreamDevice that never blocks.
    std::unique_ptr<QIODevice> open(QString *error) const;
};

} // namespace crawl

Q_DECLARE_METATYPE(crawl::InputSource)

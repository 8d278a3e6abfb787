// Fuzzes the URL list reader (UrlListReader and scanUrlList) over arbitrary list files, plain and CSV.
// The first input byte chooses whether a `url,note` header goes in front, so every seed is explored in
// both formats. Besides "no crash, no sanitizer report, ends" it checks the promise "exactly one outcome
// per input line": line numbers rise strictly and stay within the file, every byte is read, a plain
// list yields exactly its non-blank, non-comment lines, and the scan counts add up to the lines read.
#include "fuzzcheck.h"
#include "input/urllistreader.h"

#include <QBuffer>

#include <cstddef>
#include <cstdint>

using fuzz::escaped;

namespace {

// Independent count of what a plain list must yield: physical lines split at '\n', a BOM dropped from
// the first, blank lines and '#' comments skipped.
qint64 plainEntries(const QByteArray &bytes) {
    qint64 entries = 0;
    const QList<QByteArray> lines = bytes.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QByteArray line = lines.at(i);
        if (i == 0 && line.startsWith("\xEF\xBB\xBF"))
            line.remove(0, 3);
        line = line.trimmed();
        if (!line.isEmpty() && !line.startsWith('#'))
            ++entries;
    }
    return entries;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size == 0)
        return 0;
    QByteArray bytes(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    if (data[0] & 1)
        bytes.prepend("url,note\r\n");
    const QByteArray what = "list \"" + escaped(bytes) + '"';
    const qint64 physicalLines = bytes.count('\n') + 1;

    QBuffer buffer(&bytes);
    buffer.open(QIODevice::ReadOnly);
    crawl::UrlListReader reader(&buffer);
    qint64 entries = 0;
    qint64 invalid = 0;
    qint64 lastLine = 0;
    while (const auto line = reader.next()) {
        ++entries;
        const QByteArray at = what + " at line " + QByteArray::number(line->lineNumber);
        FUZZ_CHECK(line->lineNumber > lastLine, at);
        FUZZ_CHECK(line->lineNumber <= physicalLines, at);
        FUZZ_CHECK(entries <= physicalLines, at);
        FUZZ_CHECK(reader.bytesConsumed() <= bytes.size(), at);
        if (line->normalized.ok())
            FUZZ_CHECK(line->normalized.url.isValid() && !line->normalized.hostKey.isEmpty(), at);
        else
            ++invalid;
        lastLine = line->lineNumber;
    }
    FUZZ_CHECK(reader.errorString().isEmpty(), what + " error " + escaped(reader.errorString()));
    FUZZ_CHECK(reader.bytesConsumed() == bytes.size(),
               what + " consumed " + QByteArray::number(reader.bytesConsumed()));
    // Lines longer than the reader's cap are reported, not split; the inputs here are far shorter.
    if (!reader.isCsv() && bytes.size() < 60'000)
        FUZZ_CHECK(entries == plainEntries(bytes), what + " entries " + QByteArray::number(entries));

    buffer.seek(0);
    const crawl::UrlListScan scan = crawl::scanUrlList(&buffer, 3);
    FUZZ_CHECK(scan.lines == entries, what + " scan lines " + QByteArray::number(scan.lines));
    FUZZ_CHECK(scan.invalid == invalid, what + " scan invalid " + QByteArray::number(scan.invalid));
    FUZZ_CHECK(scan.valid + scan.duplicates + scan.invalid == scan.lines, what);
    FUZZ_CHECK(scan.firstInvalid.size() == qMin<qint64>(scan.invalid, 3), what);
    FUZZ_CHECK(scan.readError.isEmpty(), what);
    return 0;
}

#pragma once

#include "model/crawlsnapshot.h"

#include <QString>

namespace crawl {

class OutputFile;

// What a finished headless run reports: one line for standard error, and the JSON summary file.
struct RunSummary {
    // "crawlscope: finished 400 URLs in 12.3 s (32.5/s): ok 390, http_error 10; 2 duplicates skipped; ..."
    static QString line(const CrawlSummary &summary);
    // Writes the summary JSON into an opened output and commits it; false with *error on failure.
    static bool writeJson(const CrawlSummary &summary, OutputFile &file, QString *error);
};

} // namespace crawl

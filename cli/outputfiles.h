#pragma once

#include "input/inputsource.h"
#include "outputfile.h"

#include <QString>

#include <memory>

namespace crawl {

// The run's outputs: the result CSV and the optional JSON summary. open() refuses paths that would
// destroy something (an output that is the input list, the summary on top of the CSV, both on standard
// output) before anything is created, then opens both, so an unwritable summary stops the run before
// the first request rather than after the crawl.
class OutputFiles {
public:
    // csvPath: "-" or a path; summaryPath: empty for none.
    bool open(const InputSource &input, const QString &csvPath, const QString &summaryPath, QString *error);

    OutputFile &csv() { return *m_csv; }
    OutputFile *summary() { return m_summary.get(); } // null without --summary-json
    void discard();                                   // before an immediate exit: leave no temporary files

    // The conflict check alone (no file is created); empty when the paths can be used together.
    static QString conflict(const InputSource &input, const QString &csvPath, const QString &summaryPath);

private:
    std::unique_ptr<OutputFile> m_csv;
    std::unique_ptr<OutputFile> m_summary;
};

} // namespace crawl

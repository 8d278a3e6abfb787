#pragma once

#include "input/inputfingerprint.h"

#include <QMap>
#include <QString>

#include <optional>

namespace crawl {

// `--cluster URL --resume NAME --input FILE`: is FILE the list the crawl was created with? The resumed
// coordinator reads the whole list again and writes one row per line, so another list would give the CSV
// rows of neither. Crawls created since the fingerprint (input.fingerprint, the same sha256 of the first
// and last 64 KiB as a local --store crawl) are compared on size and content; older ones (no fingerprint)
// on their stored byte size only.
struct ClusterListCheck {
    bool refuse = false;
    QString message; // why refused, or (not refused) a note for the user; empty when there is nothing to say
};

// `now` is nullopt for a list read from a pipe: accepted for a crawl created from a pipe, refused (unless
// --input-changed ok) for one created from a file, as the size check did before. The
// modification time is not compared: a list copied to the machine the coordinator resumes on is the same
// list.
ClusterListCheck checkClusterResumeList(const QMap<QString, QString> &crawlSettings,
                                        const std::optional<InputFingerprint> &now, const QString &inputName,
                                        const QString &crawlName, bool inputChangedOk);

} // namespace crawl

#include "clusterlistcheck.h"

namespace crawl {

ClusterListCheck checkClusterResumeList(const QMap<QString, QString> &crawlSettings,
                                        const std::optional<InputFingerprint> &now, const QString &inputName,
                                        const QString &crawlName, bool inputChangedOk) {
    ClusterListCheck check;
    const QString storedPrint = crawlSettings.value(InputFingerprint::kSettingsKey);
    if (!now) {
        // A pipe cannot be compared with a list that was a file: the user says it is the same, or not.
        if (!storedPrint.isEmpty() || !crawlSettings.value(QStringLiteral("input_bytes")).isEmpty()) {
            check.refuse = !inputChangedOk;
            if (check.refuse)
                check.message = QStringLiteral("crawl \"%1\" was created from a list file; %2 cannot be "
                                               "compared with it: give the file, or --input-changed ok")
                                    .arg(crawlName, inputName);
        }
        return check;
    }
    QString differs;
    QString how;
    if (!storedPrint.isEmpty()) {
        const std::optional<InputFingerprint> then = InputFingerprint::fromString(storedPrint);
        if (!then) {
            check.refuse = !inputChangedOk;
            check.message =
                QStringLiteral(
                    "crawl \"%1\" has an unreadable input fingerprint (\"%2\"); cannot tell whether "
                    "%3 is its list%4")
                    .arg(crawlName, storedPrint.left(100), inputName,
                         inputChangedOk ? QStringLiteral(" (--input-changed ok: going on)")
                                        : QStringLiteral(": give --input-changed ok to go on"));
            return check;
        }
        InputFingerprint thenContent = *then;
        thenContent.modifiedMs = now->modifiedMs; // not compared: see the header
        differs = InputFingerprint::differences(thenContent, *now);
    } else {
        const QString storedBytes = crawlSettings.value(QStringLiteral("input_bytes"));
        if (storedBytes.isEmpty())
            return check; // created from a pipe: nothing was recorded
        how = QStringLiteral(" (the crawl was created by an older coordinator that stored only the list's "
                             "size: only the size is compared)");
        if (storedBytes != QString::number(now->size))
            differs = QStringLiteral("size %1 -> %2 bytes").arg(storedBytes).arg(now->size);
    }
    if (differs.isEmpty()) {
        check.message = how.isEmpty() ? QString()
                                      : QStringLiteral("%1 has the size crawl \"%2\" was created "
                                                       "with%3")
                                            .arg(inputName, crawlName, how);
        return check;
    }
    check.refuse = !inputChangedOk;
    check.message =
        inputChangedOk ? QStringLiteral("%1 is not the list crawl \"%2\" was created with (%3)%4; going on "
                                        "(--input-changed ok)")
                             .arg(inputName, crawlName, differs, how)
                       // Other lines would get other rows: the CSV would be one row per line of neither list.
                       : QStringLiteral("%1 is not the list crawl \"%2\" was created with (%3)%4; give the "
                                        "same list, or --input-changed ok")
                             .arg(inputName, crawlName, differs, how);
    return check;
}

} // namespace crawl

#include "hosttolerance.h"

#include "httpformat.h"

#include <algorithm>

namespace testsite {

int HostTolerance::latencyMs(int load) const {
    const qint64 ms = qint64(baseMs) + qint64(stepMs) * std::max(1, load);
    return int(std::min<qint64>(ms, kMaxMs));
}

bool HostTolerance::parse(const QByteArray &key, const QByteArray &value) {
    if (key == "tolerance")
        capacity = int(std::clamp<qint64>(toNumber(value, 0), 0, kMaxCapacity));
    else if (key == "tolms")
        baseMs = int(std::clamp<qint64>(toNumber(value, 0), 0, kMaxMs));
    else if (key == "tolstep")
        stepMs = int(std::clamp<qint64>(toNumber(value, 0), 0, kMaxMs));
    else
        return false;
    return true;
}

} // namespace testsite

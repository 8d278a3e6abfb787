#include "charts/hostpalette.h"

#include <array>

namespace ui {

namespace {
// Distinct on white and for the common colour-vision deficiencies (Tableau 10, without its blue, which
// the total line uses).
constexpr std::array<QRgb, 9> kColors = {0xf28e2b, 0x59a14f, 0xb07aa1, 0xe15759, 0x76b7b2,
                                         0xedc948, 0xff9da7, 0x9c755f, 0xbab0ac};
} // namespace

QColor HostPalette::colorFor(const QString &host) {
    auto it = m_assigned.constFind(host);
    if (it == m_assigned.cend())
        it = m_assigned.insert(host, int(m_assigned.size() % qsizetype(kColors.size())));
    return QColor::fromRgb(kColors[size_t(*it)]);
}

} // namespace ui

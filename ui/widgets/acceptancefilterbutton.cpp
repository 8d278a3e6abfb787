#include "widgets/acceptancefilterbutton.h"

#include "models/acceptancefilter.h"
#include "models/resultfiltersortmodel.h"
#include "models/resultsmodel.h"

#include <QActionGroup>
#include <QLocale>
#include <QMenu>

#include <array>
#include <vector>

namespace ui {

namespace {

QString number(qint64 n) {
    return QLocale().toString(n);
}

using Accepted = crawl::CrawlResult::Accepted;

QString acceptanceName(Accepted accepted) {
    switch (accepted) {
    case Accepted::Yes:
        return QObject::tr("accepted");
    case Accepted::No:
        return QObject::tr("rejected");
    case Accepted::Unknown:
        break;
    }
    return QObject::tr("not checked");
}

} // namespace

AcceptanceFilterButton::AcceptanceFilterButton(ResultFilterSortModel *model, QWidget *parent)
    : QToolButton(parent)
    , m_model(model) {
    setToolTip(tr("Show only accepted, rejected or unchecked rows, or the rows one acceptance check "
                  "rejected (Crawl > Crawl Rules sets the checks)"));
    setPopupMode(QToolButton::InstantPopup);
    setMenu(new QMenu(this));
    connect(menu(), &QMenu::aboutToShow, this, &AcceptanceFilterButton::fillMenu);
    updateText();
}

void AcceptanceFilterButton::fillMenu() {
    QMenu *menu = this->menu();
    menu->clear();
    const ResultStore &store = m_model->resultsModel()->store();
    const bool failuresOnly = m_model->failuresOnly();
    // Rows per acceptance and per check a reason names; each distinct reason is parsed once.
    std::array<qint64, 3> perAcceptance{};
    std::array<qint64, AcceptanceFilter::kCheckCount> perCheck{};
    std::vector<qint16> checksById(size_t(store.stringCount()), -1);
    for (qsizetype row = 0; row < store.size(); ++row) {
        if (failuresOnly && !crawl::isFailure(store.outcome(row)))
            continue;
        ++perAcceptance[size_t(store.accepted(row))];
        const quint32 id = store.row(row).rejectReasonId;
        if (id == 0)
            continue;
        qint16 &checks = checksById[id];
        if (checks < 0)
            checks = qint16(AcceptanceFilter::checksOf(store.string(id)));
        for (int i = 0; i < AcceptanceFilter::kCheckCount; ++i) {
            if (quint32(checks) & AcceptanceFilter::checkAt(i))
                ++perCheck[size_t(i)];
        }
    }
    const AcceptanceFilter current = m_model->acceptanceFilter();
    for (const Accepted accepted : {Accepted::Yes, Accepted::No, Accepted::Unknown}) {
        QAction *action = menu->addAction(
            tr("%1 (%2)").arg(acceptanceName(accepted), number(perAcceptance[size_t(accepted)])));
        action->setCheckable(true);
        action->setChecked(current.isShown(accepted));
        action->setData(int(accepted));
        connect(action, &QAction::triggered, this, [this, accepted](bool on) {
            AcceptanceFilter filter = m_model->acceptanceFilter();
            filter.setShown(accepted, on);
            m_model->setAcceptanceFilter(filter);
            updateText();
        });
    }
    menu->addSection(tr("Reject reason"));
    auto *reasons = new QActionGroup(menu);
    reasons->setExclusive(true);
    auto addReason = [&](const QString &text, quint32 checks) {
        QAction *action = menu->addAction(text);
        action->setCheckable(true);
        action->setChecked(current.checks() == checks);
        action->setData(checks);
        reasons->addAction(action);
        connect(action, &QAction::triggered, this, [this, checks] {
            AcceptanceFilter filter = m_model->acceptanceFilter();
            filter.setChecks(checks);
            m_model->setAcceptanceFilter(filter);
            updateText();
        });
    };
    addReason(tr("Any (or none)"), AcceptanceFilter::kAllChecks);
    for (int i = 0; i < AcceptanceFilter::kCheckCount; ++i) {
        const AcceptanceFilter::Check check = AcceptanceFilter::checkAt(i);
        if (perCheck[size_t(i)] == 0 && current.checks() != quint32(check))
            continue;
        addReason(tr("%1 (%2)").arg(AcceptanceFilter::checkName(check), number(perCheck[size_t(i)])), check);
    }
    menu->addSeparator();
    QAction *all = menu->addAction(tr("Show All"));
    connect(all, &QAction::triggered, this, [this] {
        m_model->setAcceptanceFilter(AcceptanceFilter{});
        updateText();
    });
}

void AcceptanceFilterButton::updateText() {
    const AcceptanceFilter filter = m_model->acceptanceFilter();
    if (filter.showsAll()) {
        setText(tr("Any acceptance"));
        return;
    }
    QStringList shown;
    for (const Accepted accepted : {Accepted::Yes, Accepted::No, Accepted::Unknown}) {
        if (filter.isShown(accepted))
            shown.append(acceptanceName(accepted));
    }
    QString text = shown.size() == 3 ? QString() : shown.isEmpty() ? tr("nothing") : shown.join(tr(", "));
    if (filter.checks() != AcceptanceFilter::kAllChecks) {
        QStringList checks;
        for (int i = 0; i < AcceptanceFilter::kCheckCount; ++i) {
            if (filter.checks() & AcceptanceFilter::checkAt(i))
                checks.append(AcceptanceFilter::checkName(AcceptanceFilter::checkAt(i)));
        }
        const QString reason = tr("reason: %1").arg(checks.join(tr(", ")));
        text = text.isEmpty() ? reason : tr("%1 · %2").arg(text, reason);
    }
    setText(text);
}

} // namespace ui

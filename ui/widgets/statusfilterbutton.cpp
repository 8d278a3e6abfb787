#include "widgets/statusfilterbutton.h"

#include "models/resultfacets.h"
#include "models/resultfiltersortmodel.h"
#include "models/resultsmodel.h"

#include <QLocale>
#include <QMenu>

namespace ui {

namespace {

QString number(qint64 n) {
    return QLocale().toString(n);
}

} // namespace

StatusFilterButton::StatusFilterButton(ResultFilterSortModel *model, QWidget *parent)
    : QToolButton(parent)
    , m_model(model) {
    setToolTip(tr("Show only some HTTP statuses: a whole class (4xx) or exact codes (404)"));
    setPopupMode(QToolButton::InstantPopup);
    setText(tr("All statuses"));
    auto *menu = new QMenu(this);
    setMenu(menu);
    auto apply = [this](const StatusFilter &filter) {
        m_model->setStatusFilter(filter);
        setText(filter.showsAll()       ? tr("All statuses")
                : filter.showsNothing() ? tr("No statuses")
                                        : tr("Some statuses"));
    };
    connect(menu, &QMenu::aboutToShow, this, [this, menu, apply] {
        menu->clear();
        const ResultFacets facets =
            ResultFacets::count(m_model->resultsModel()->store(), m_model->failuresOnly());
        const StatusFilter current = m_model->statusFilter();
        for (int statusClass = 0; statusClass < StatusFilter::kClassCount; ++statusClass) {
            qint64 classCount = 0;
            QList<int> codes;
            for (auto it = facets.statuses.cbegin(); it != facets.statuses.cend(); ++it) {
                if (StatusFilter::classOf(it.key()) == statusClass) {
                    classCount += it.value();
                    codes.append(it.key());
                }
            }
            if (classCount == 0 && current.classState(statusClass) == StatusFilter::ClassState::Shown)
                continue; // nothing of this class yet, and nothing of it hidden
            const StatusFilter::ClassState state = current.classState(statusClass);
            QAction *whole = menu->addAction(
                tr("%1 (%2)%3")
                    .arg(StatusFilter::className(statusClass), number(classCount),
                         state == StatusFilter::ClassState::Partly ? tr(" · some") : QString()));
            whole->setCheckable(true);
            whole->setChecked(state != StatusFilter::ClassState::Hidden);
            connect(whole, &QAction::triggered, this, [this, statusClass, apply](bool on) {
                StatusFilter filter = m_model->statusFilter();
                filter.setClass(statusClass, on);
                apply(filter);
            });
            if (statusClass == StatusFilter::kNoResponseClass)
                continue; // one "code" only
            for (const int code : std::as_const(codes)) {
                QAction *exact = menu->addAction(
                    QStringLiteral("    %1 (%2)").arg(code).arg(number(facets.statuses.value(code))));
                exact->setCheckable(true);
                exact->setChecked(current.accepts(code));
                exact->setData(code);
                connect(exact, &QAction::triggered, this, [this, code, apply](bool on) {
                    StatusFilter filter = m_model->statusFilter();
                    filter.setCode(code, on);
                    apply(filter);
                });
            }
        }
        menu->addSeparator();
        QAction *only = menu->addAction(tr("Only Errors (4xx and 5xx)"));
        connect(only, &QAction::triggered, this, [apply] {
            StatusFilter filter;
            for (int statusClass = 0; statusClass < StatusFilter::kClassCount; ++statusClass)
                filter.setClass(statusClass, statusClass >= 4);
            apply(filter);
        });
        QAction *all = menu->addAction(tr("Show All"));
        connect(all, &QAction::triggered, this, [apply] { apply(StatusFilter{}); });
    });
}

} // namespace ui

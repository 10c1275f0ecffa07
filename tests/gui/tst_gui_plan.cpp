// SPDX-License-Identifier: GPL-3.0-or-later
// The window's plan tree and its notes. The plan is a real recording's (tests/data/plans/: a nested
// loop of 1,000 outer rows over an inner index scan, its outer side a hash join of two sequential
// scans, recorded on PostgreSQL 15): its nodes nest as EXPLAIN nests them, each scan node's figures
// are the recording's, the modelled node is chosen and its mark says whether the model's misses are
// the server's shared read; a session without the plan, or with damaged nodes, lists what it has.
// The notes list each distinct note once and never cuts one.
// With LOOKAHEAD_SCREENSHOTS=DIR the window is also saved there as PNGs.
#include "dashboard.h"
#include "gui/window/distinct_notes.h"
#include "gui/window/plan_outline.h"
#include "gui/window/plan_panel.h"
#include "plot_view.h"
#include "qcp.h"
#include "window_harness.h"

#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QListWidget>
#include <QTest>
#include <QTreeWidget>

#include <algorithm>

using namespace la;

namespace {

using test::cliOptions;
using test::kWindowTimeoutMs;
using test::shownAt;
using test::waitIdle;

QJsonObject recording() {
    QFile file(QStringLiteral(LOOKAHEAD_PLAN_DATA "/pg15-nested-loop-hash-join.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

// The recording's experiment as a session gives it back: the trace (A) beside its model (B).
struct Recorded {
    Experiment experiment;
    std::vector<RunSummary> summaries;
    QJsonArray nodes; // the recording's nodes, as `record` kept them
};

Recorded recorded(const QJsonObject& doc) {
    Recorded r;
    r.experiment.comparison = Comparison::Observed;
    r.experiment.recorded = doc.value(QStringLiteral("recorded")).toObject();
    r.nodes = r.experiment.recorded.value(QStringLiteral("nodes")).toArray();
    for (const QJsonValue& value : doc.value(QStringLiteral("runs")).toArray()) {
        const QJsonObject run = value.toObject();
        RunVariant variant;
        variant.label = run.value(QStringLiteral("label")).toString().toStdString();
        variant.policy = run.value(QStringLiteral("policy")).toString().toStdString();
        if (run.value(QStringLiteral("observed")).toBool())
            variant.observed = std::make_shared<const ObservedTrace>();
        r.experiment.runs.push_back(variant);
        RunSummary summary;
        summary.policy = variant.policy;
        summary.hits = run.value(QStringLiteral("hits")).toInteger();
        summary.misses = run.value(QStringLiteral("misses")).toInteger();
        summary.ios = run.value(QStringLiteral("ios")).toInteger();
        summary.resets = run.value(QStringLiteral("resets")).toInteger();
        const QJsonObject sizes = run.value(QStringLiteral("io_size_hist")).toObject();
        for (auto it = sizes.begin(); it != sizes.end(); ++it)
            summary.ioSizeHist[it.key().toInt()] = it.value().toInteger();
        if (!variant.observed)
            summary.reconciliation = QJsonDocument(doc.value(QStringLiteral("reconciliation")).toObject())
                                         .toJson(QJsonDocument::Compact)
                                         .toStdString();
        r.summaries.push_back(summary);
    }
    return r;
}

QJsonObject nodeWithId(const QJsonArray& nodes, qint64 id) {
    for (const QJsonValue& node : nodes)
        if (node[QStringLiteral("node_id")].toInteger() == id)
            return node.toObject();
    return {};
}

double explainFigure(const QJsonObject& node, const char* key) {
    return node[QStringLiteral("explain")][QLatin1String(key)].toDouble();
}

const PlanRow* rowOf(const PlanOutline& outline, std::int64_t nodeId) {
    for (const PlanRow& row : outline.rows)
        if (row.nodeId == nodeId)
            return &row;
    return nullptr;
}

} // namespace

class TestGuiPlan : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void outlineNestsEveryNodeWithItsFigures();
    void modelMissesOtherThanTheServersDiffer();
    void aSessionWithoutThePlanListsItsScanNodes();
    void damagedNodesAreListedWithoutThePlan();
    void panelChoosesTheModelledNode();
    void windowShowsThePlanBesideThePlots();
    void notesAreListedOnceEach();
    void notesAreWrappedNeverCut();
    void aComparisonSaysASharedNoteOnce();
};

void TestGuiPlan::initTestCase() {
    test::useCleanTestSettings();
    QVERIFY(!recording().isEmpty());
}

void TestGuiPlan::outlineNestsEveryNodeWithItsFigures() {
    const Recorded r = recorded(recording());
    const PlanOutline outline = planOutline(r.experiment, r.summaries);
    QVERIFY(outline.note.isEmpty());
    // The plan as EXPLAIN nests it: the nested loop's outer side a hash join, its inner an index scan.
    QStringList shape;
    for (const PlanRow& row : outline.rows)
        shape << QString(row.depth, QLatin1Char(' ')) + row.type;
    QCOMPARE(shape, QStringList({QStringLiteral("Aggregate"), QStringLiteral(" Nested Loop"),
                                 QStringLiteral("  Hash Join"), QStringLiteral("   Seq Scan"),
                                 QStringLiteral("   Hash"), QStringLiteral("    Seq Scan"),
                                 QStringLiteral("  Index Scan")}));
    for (std::size_t i = 0; i < outline.rows.size(); ++i)
        QCOMPARE(outline.rows[i].nodeId, std::int64_t(i));
    // Each scan node with the recording's figures; the others read no relation.
    int scans = 0;
    for (const PlanRow& row : outline.rows) {
        const QJsonObject node = nodeWithId(r.nodes, row.nodeId);
        QCOMPARE(row.scan, !node.isEmpty());
        if (!row.scan) {
            QCOMPARE(row.mark, PlanMark::None);
            continue;
        }
        ++scans;
        QCOMPARE(row.relation, node[QStringLiteral("relation")].toString());
        QCOMPARE(row.index, node[QStringLiteral("index")].toString());
        QCOMPARE(*row.sharedHit, explainFigure(node, "shared_hit"));
        QCOMPARE(*row.sharedRead, explainFigure(node, "shared_read"));
        QCOMPARE(*row.loops, node[QStringLiteral("loops")].toDouble());
        QCOMPARE(*row.resets, node[QStringLiteral("resets")].toDouble());
        QCOMPARE(row.modelled, node[QStringLiteral("modelled")].toBool());
        QCOMPARE(row.serverStream, node[QStringLiteral("server_stream")].toString());
    }
    QCOMPARE(scans, r.nodes.size());
    // The inner index scan: rescanned for each of the 1,000 outer rows; not modelled, and why.
    const PlanRow* inner = rowOf(outline, 6);
    QVERIFY(inner);
    QCOMPARE(inner->index, QStringLiteral("r_id"));
    QCOMPARE(*inner->loops, 1000.0);
    QCOMPARE(*inner->resets, 999.0);
    QCOMPARE(inner->mark, PlanMark::NotModelled);
    QVERIFY(inner->runs.empty());
    QVERIFY2(inner->markText.contains(nodeWithId(r.nodes, 6)[QStringLiteral("why_not_modelled")].toString()),
             qPrintable(inner->markText));
    // The modelled node: the recording's, with each run's figures; the model missed what the server
    // read, so they agree.
    const qint64 modelledId = r.experiment.recorded[QStringLiteral("modelled_node")].toInteger();
    QVERIFY(outline.modelledRow >= 0);
    const PlanRow& modelled = outline.rows[std::size_t(outline.modelledRow)];
    QCOMPARE(modelled.nodeId, modelledId);
    QVERIFY(modelled.modelled);
    QCOMPARE(modelled.runs.size(), r.summaries.size());
    QCOMPARE(modelled.runs[1].misses, r.summaries[1].misses);
    QCOMPARE(modelled.runs[1].ios, r.summaries[1].ios);
    QVERIFY(modelled.runs[1].meanIoBlocks > 1.0); // the model combines reads
    QVERIFY(modelled.runs[0].observed && !modelled.runs[1].observed);
    QCOMPARE(double(modelled.runs[1].misses), *modelled.sharedRead);
    QCOMPARE(modelled.mark, PlanMark::Agrees);
    QVERIFY2(modelled.markText.startsWith(QLatin1String("agrees")), qPrintable(modelled.markText));
}

void TestGuiPlan::modelMissesOtherThanTheServersDiffer() {
    Recorded r = recorded(recording());
    // Without a reconciliation, the model's misses are compared with EXPLAIN's shared read.
    r.summaries[1].reconciliation.clear();
    QCOMPARE(planOutline(r.experiment, r.summaries).rows[3].mark, PlanMark::Agrees);
    r.summaries[1].misses -= 1;
    const PlanOutline outline = planOutline(r.experiment, r.summaries);
    QCOMPARE(outline.rows[3].mark, PlanMark::Differs);
    QVERIFY2(outline.rows[3].markText.startsWith(QLatin1String("differs")),
             qPrintable(outline.rows[3].markText));
    // A model not run yet has no mark.
    QCOMPARE(planOutline(r.experiment, {r.summaries[0]}).rows[3].mark, PlanMark::None);
}

// A plan too long for a session's meta entry is left out: the nodes that read a relation are listed.
void TestGuiPlan::aSessionWithoutThePlanListsItsScanNodes() {
    Recorded r = recorded(recording());
    r.experiment.recorded.remove(QStringLiteral("plan"));
    r.experiment.recorded[QStringLiteral("plan_left_out")] = true;
    const PlanOutline outline = planOutline(r.experiment, r.summaries);
    QCOMPARE(outline.rows.size(), std::size_t(r.nodes.size()));
    for (const PlanRow& row : outline.rows)
        QVERIFY(row.scan && row.depth == 0);
    QVERIFY2(outline.note.contains(QLatin1String("left the plan out")), qPrintable(outline.note));
    QCOMPARE(outline.rows[std::size_t(outline.modelledRow)].mark, PlanMark::Agrees);
    // No recording, no plan.
    r.experiment.recorded = {};
    QVERIFY(planOutline(r.experiment, r.summaries).empty());
}

// A session's nodes that do not match its plan (a node id beyond it, another type at its place,
// figures that are no numbers, two nodes flagged as modelled) are listed without the plan, safely.
void TestGuiPlan::damagedNodesAreListedWithoutThePlan() {
    Recorded r = recorded(recording());
    QJsonArray nodes = r.nodes;
    QJsonObject node = nodes[1].toObject();
    node[QStringLiteral("node_id")] = 1e300;
    node[QStringLiteral("modelled")] = true;
    node[QStringLiteral("loops")] = QStringLiteral("many");
    nodes[1] = node;
    r.experiment.recorded[QStringLiteral("nodes")] = nodes;
    PlanOutline outline = planOutline(r.experiment, r.summaries);
    QCOMPARE(outline.rows.size(), std::size_t(nodes.size()));
    QVERIFY(!outline.note.isEmpty());
    QCOMPARE(outline.rows[1].nodeId, -1);
    QVERIFY(!outline.rows[1].loops);
    QVERIFY(!outline.rows[1].modelled); // one node is modelled: the first flagged
    QCOMPARE(outline.rows[1].mark, PlanMark::NotModelled);
    // A node that is no object is left out.
    nodes.append(QStringLiteral("not a node"));
    r.experiment.recorded[QStringLiteral("nodes")] = nodes;
    QCOMPARE(planOutline(r.experiment, r.summaries).rows.size(), std::size_t(nodes.size() - 1));
    nodes.removeLast();
    node[QStringLiteral("node_id")] = 2; // the Hash Join's place
    nodes[1] = node;
    r.experiment.recorded[QStringLiteral("nodes")] = nodes;
    QVERIFY(!planOutline(r.experiment, r.summaries).note.isEmpty());
    // A plan that is not EXPLAIN's.
    r.experiment.recorded[QStringLiteral("nodes")] = r.nodes;
    r.experiment.recorded[QStringLiteral("plan")] =
        QJsonObject{{QStringLiteral("traced"), QStringLiteral("{[")}};
    outline = planOutline(r.experiment, r.summaries);
    QCOMPARE(outline.rows.size(), std::size_t(r.nodes.size()));
    QVERIFY(!outline.note.isEmpty());
    PlanPanel panel;
    panel.setOutline(outline);
    QCOMPARE(panel.tree()->topLevelItemCount(), r.nodes.size());
}

void TestGuiPlan::panelChoosesTheModelledNode() {
    const Recorded r = recorded(recording());
    PlanPanel panel;
    panel.setOutline(planOutline(r.experiment, r.summaries));
    const QTreeWidget* tree = panel.tree();
    QCOMPARE(tree->topLevelItemCount(), 1); // the Aggregate, everything below it
    QCOMPARE(tree->topLevelItem(0)->child(0)->text(0), QStringLiteral("Nested Loop"));
    const QTreeWidgetItem* inner = tree->topLevelItem(0)->child(0)->child(1);
    QCOMPARE(inner->text(0), QStringLiteral("Index Scan on r using r_id"));
    QCOMPARE(inner->text(1), QStringLiteral("not modelled"));
    const QJsonObject innerNode = nodeWithId(r.nodes, 6);
    QCOMPARE(inner->text(2),
             QStringLiteral("%1 / %2").arg(
                 QLocale(QLocale::English).toString(explainFigure(innerNode, "shared_hit"), 'f', 0),
                 QLocale(QLocale::English).toString(explainFigure(innerNode, "shared_read"), 'f', 0)));
    QCOMPARE(inner->text(4), QStringLiteral("999 (1,000)"));
    QCOMPARE(inner->toolTip(1),
             QStringLiteral("not modelled: ") + innerNode[QStringLiteral("why_not_modelled")].toString());
    // The modelled node is chosen, in bold, its figures beside EXPLAIN's.
    QCOMPARE(panel.chosenNode(), r.experiment.recorded[QStringLiteral("modelled_node")].toInteger());
    const QTreeWidgetItem* chosen = tree->currentItem();
    QVERIFY(chosen->font(0).bold());
    QCOMPARE(chosen->text(1), QStringLiteral("agrees"));
    QCOMPARE(chosen->text(3), QStringLiteral("0 / 2,942"));
    QVERIFY2(panel.details().contains(QLatin1String("the modelled node")), qPrintable(panel.details()));
    QVERIFY2(panel.details().contains(QLatin1String("187 I/Os of 15.7 blocks on average")),
             qPrintable(panel.details()));
    // Another node: its figures, why it is not modelled, in full, and how to model it.
    QVERIFY(panel.chooseNode(6));
    QVERIFY2(panel.details().contains(innerNode[QStringLiteral("why_not_modelled")].toString()),
             qPrintable(panel.details()));
    QVERIFY2(panel.details().contains(QLatin1String("--node 6")), qPrintable(panel.details()));
    QVERIFY2(panel.details().contains(QLatin1String("loops 1,000, resets 999")), qPrintable(panel.details()));
    QVERIFY(panel.chooseNode(1));
    QVERIFY2(panel.details().contains(QLatin1String("reads no relation")), qPrintable(panel.details()));
    QVERIFY(!panel.chooseNode(99));
    QCOMPARE(panel.chosenNode(), 1);
    // No plan: an empty tree that says so.
    panel.setOutline({});
    QCOMPARE(panel.tree()->topLevelItemCount(), 0);
    QCOMPARE(panel.chosenNode(), -1);
    QVERIFY(panel.details().contains(QLatin1String("no recorded plan")));
}

// The window shows the plan of the runs on screen in a dock beside the plots, the tree's columns
// whole at 1600×1000 and at 1280×800, the chosen node's lines wrapped, never cut; runs without a
// plan hide it.
void TestGuiPlan::windowShowsThePlanBesideThePlots() {
    const Recorded r = recorded(recording());
    for (const QSize size : {QSize(1600, 1000), QSize(1280, 800)}) {
        MainWindow window;
        window.applyStartup(cliOptions({}));
        QVERIFY(shownAt(window, size.width(), size.height()));
        std::vector<std::unique_ptr<RunTrace>> traces;
        for (std::size_t run = 0; run < r.summaries.size(); ++run) {
            traces.push_back(std::make_unique<RunTrace>(r.experiment.runs[run].label));
            traces.back()->setSummary(r.summaries[run]);
        }
        window.controller().showLoaded(r.experiment, std::move(traces));
        QVERIFY(waitIdle(window));
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("plan"));
        QVERIFY(dock && dock->isVisible());
        const PlanPanel* panel = window.planPanel();
        QCOMPARE(panel->chosenNode(), r.experiment.recorded[QStringLiteral("modelled_node")].toInteger());
        const QTreeWidget* tree = panel->tree();
        QVERIFY2(tree->header()->length() <= tree->viewport()->width(),
                 qPrintable(QStringLiteral("columns %1 wide in a tree %2 wide")
                                .arg(tree->header()->length())
                                .arg(tree->viewport()->width())));
        const auto* details = panel->findChild<QLabel*>(QStringLiteral("planDetails"));
        QVERIFY(details->wordWrap());
        QVERIFY(details->height() >= details->heightForWidth(details->width()));
        // The plots, narrower beside it, keep their time labels apart (over the recorded run's 70 ms).
        window.dashboard()->zoomTo(0.0, 0.07);
        QVERIFY(waitIdle(window));
        for (PlotView* view : window.dashboard()->views()) {
            if (view->isHidden()) // the streams' view, of a run of one stream
                continue;
            QCustomPlot* plot = view->findChild<QCustomPlot*>();
            plot->replot();
            for (QCPAxisRect* rect : plot->axisRects()) {
                QCPAxis* x = rect->axis(QCPAxis::atBottom);
                const QVector<double> ticks = x->tickVector();
                const QVector<QString> labels = x->tickVectorLabels();
                const QFontMetrics metrics(x->tickLabelFont());
                for (qsizetype i = 1; i < ticks.size(); ++i)
                    QVERIFY2(x->coordToPixel(ticks[i]) - x->coordToPixel(ticks[i - 1]) >
                                 (metrics.horizontalAdvance(labels[i - 1]) +
                                  metrics.horizontalAdvance(labels[i])) /
                                     2.0,
                             qPrintable(labels[i - 1] + QStringLiteral(" runs into ") + labels[i]));
            }
        }
        if (const QString dir = qEnvironmentVariable("LOOKAHEAD_SCREENSHOTS"); !dir.isEmpty())
            window.grab().save(dir +
                               QStringLiteral("/plan-tree-%1x%2.png").arg(size.width()).arg(size.height()));
        // The inner index scan chosen: why it is not modelled and how to model it, whole.
        QVERIFY(window.planPanel()->chooseNode(6));
        QVERIFY(details->height() >= details->heightForWidth(details->width()));
        if (const QString dir = qEnvironmentVariable("LOOKAHEAD_SCREENSHOTS"); !dir.isEmpty())
            window.grab().save(
                dir + QStringLiteral("/plan-tree-inner-%1x%2.png").arg(size.width()).arg(size.height()));
        // A run without a plan hides it.
        Experiment plain = r.experiment;
        plain.recorded = {};
        std::vector<std::unique_ptr<RunTrace>> plainTraces;
        plainTraces.push_back(std::make_unique<RunTrace>("pg19"));
        plainTraces.back()->setSummary(r.summaries[1]);
        plain.runs = {r.experiment.runs[1]};
        plain.comparison = Comparison::None;
        window.controller().showLoaded(plain, std::move(plainTraces));
        QVERIFY(waitIdle(window));
        QVERIFY(dock->isHidden());
    }
}

void TestGuiPlan::notesAreListedOnceEach() {
    const QStringList runs{QStringLiteral("A: pg18"), QStringLiteral("B: pg19")};
    const QString grown = QStringLiteral("the model's shared buffers are grown from the default 16,384");
    // Said by both runs: once, plain; by one run only: once, naming it; the experiment's own: plain.
    QCOMPARE(distinctNotes({{grown, 0},
                            {QStringLiteral("only B"), 1},
                            {grown, 1},
                            {QStringLiteral("import"), -1},
                            {QStringLiteral("import"), -1}},
                           runs),
             QStringList({grown, QStringLiteral("[B: pg19] only B"), QStringLiteral("import")}));
    // A single run's notes name no run; a run beyond the experiment's is none of them.
    QCOMPARE(distinctNotes({{grown, 0}, {grown, 0}}, {runs[0]}), QStringList({grown}));
    QCOMPARE(distinctNotes({{grown, 7}}, runs), QStringList({grown}));
}

// Each note is whole: a long one is wrapped over lines, never cut with "…"; the list is as high as
// its first four notes.
void TestGuiPlan::notesAreWrappedNeverCut() {
    Dashboard dashboard;
    QVERIFY(shownAt(dashboard, 1024, 700));
    auto* notes = dashboard.findChild<QListWidget*>(QStringLiteral("notesList"));
    QVERIFY(notes);
    const QString longNote =
        QStringLiteral("a long note: ") + QStringLiteral("every word of it matters ").repeated(20);
    dashboard.setNotes({QStringLiteral("a short note"), longNote});
    QVERIFY(!notes->isHidden());
    QCOMPARE(dashboard.notes(), QStringList({QStringLiteral("a short note"), longNote}));
    QVERIFY(notes->wordWrap());
    QCOMPARE(notes->textElideMode(), Qt::ElideNone);
    const int shortRow = notes->visualRect(notes->model()->index(0, 0)).height();
    const int longRow = notes->visualRect(notes->model()->index(1, 0)).height();
    QVERIFY2(longRow >= 2 * shortRow, qPrintable(QStringLiteral("%1 against %2").arg(longRow).arg(shortRow)));
    // The long note's text fits its row at the list's width.
    const QRect needed = notes->fontMetrics().boundingRect(
        QRect(0, 0, notes->viewport()->width() - 8, 10'000), Qt::TextWordWrap, longNote);
    QVERIFY2(longRow >= needed.height(),
             qPrintable(QStringLiteral("%1 against %2").arg(longRow).arg(needed.height())));
    QVERIFY(QTest::qWaitFor([&] { return notes->height() == 2 * notes->frameWidth() + shortRow + longRow; },
                            kWindowTimeoutMs));
    // Narrower, the long note takes more lines and the list grows with it.
    dashboard.resize(700, 700);
    QVERIFY(QTest::qWaitFor(
        [&] {
            const int row = notes->visualRect(notes->model()->index(1, 0)).height();
            return row > longRow && notes->height() == 2 * notes->frameWidth() + shortRow + row;
        },
        kWindowTimeoutMs));
}

// Both runs of a comparison grow the model's shared buffers alike: the note is listed once.
void TestGuiPlan::aComparisonSaysASharedNoteOnce() {
    MainWindow window;
    QVERIFY(shownAt(window, 1280, 800));
    test::runToEnd(window, test::smallRun(40'000)
                               << QStringLiteral("--prewarm") << QStringLiteral("every:2"));
    const QStringList notes = window.dashboard()->notes();
    const QStringList grown = notes.filter(QStringLiteral("shared buffers are grown"));
    QVERIFY2(grown.size() == 1, qPrintable(notes.join(QLatin1Char('\n'))));
    QVERIFY2(!grown.first().startsWith(QLatin1Char('[')), qPrintable(grown.first()));
    if (const QString dir = qEnvironmentVariable("LOOKAHEAD_SCREENSHOTS"); !dir.isEmpty())
        window.grab().save(dir + QStringLiteral("/notes-once.png"));
    // Each run said it.
    const std::vector<std::string>& said = window.controller().experiment().notes;
    QCOMPARE(std::count_if(said.begin(), said.end(),
                           [](const std::string& note) {
                               return note.find("shared buffers are grown") != std::string::npos;
                           }),
             2);
}

QTEST_MAIN(TestGuiPlan)
#include "tst_gui_plan.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The layers of docs/architecture.md, read from the sources: no include cycle between files (a
// header and its .cpp count as one file), and core's base and files include nothing above them.
#include <QDirIterator>
#include <QFile>
#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>

#include <algorithm>

namespace {

const QString kSourceDir = QStringLiteral(LOOKAHEAD_SOURCE_DIR);
const QStringList kTrees{QStringLiteral("core"), QStringLiteral("app"), QStringLiteral("widgets")};

// "core/stream/read_stream" for core/stream/read_stream.{h,cpp}.
QString moduleOf(const QString& relativePath) {
    return relativePath.left(relativePath.lastIndexOf(QLatin1Char('.')));
}

class SourceTree {
public:
    SourceTree() {
        for (const QString& tree : kTrees) {
            QDirIterator it(kSourceDir + QLatin1Char('/') + tree,
                            {QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext())
                m_files.append(QDir(kSourceDir).relativeFilePath(it.next()));
        }
        m_files.sort();
    }

    const QStringList& files() const { return m_files; }

    // The file an `#include "name"` in `from` opens: the includer's own folder first, as the compiler
    // looks, then a file of the same top-level tree whose path ends with `name`, then any tree.
    QString resolve(const QString& from, const QString& name) const {
        const QString sibling = QFileInfo(from).path() + QLatin1Char('/') + name;
        if (m_files.contains(sibling))
            return sibling;
        const QString tree = from.section(QLatin1Char('/'), 0, 0);
        QStringList matches;
        for (const QString& file : m_files)
            if (file.endsWith(QLatin1Char('/') + name))
                matches.append(file);
        for (const QString& match : matches)
            if (match.startsWith(tree + QLatin1Char('/')))
                return match;
        return matches.value(0);
    }

    // Module → the modules its files include (system and Qt headers are not ours and are skipped).
    QHash<QString, QSet<QString>> moduleGraph() const {
        static const QRegularExpression include(QStringLiteral("^\\s*#\\s*include\\s+\"([^\"]+)\""),
                                                QRegularExpression::MultilineOption);
        QHash<QString, QSet<QString>> graph;
        for (const QString& file : m_files) {
            QFile source(kSourceDir + QLatin1Char('/') + file);
            if (!source.open(QIODevice::ReadOnly))
                qFatal("cannot read %s", qPrintable(file));
            const QString text = QString::fromUtf8(source.readAll());
            QSet<QString>& edges = graph[moduleOf(file)];
            for (auto match = include.globalMatch(text); match.hasNext();) {
                const QString target = resolve(file, match.next().captured(1));
                if (!target.isEmpty() && moduleOf(target) != moduleOf(file))
                    edges.insert(moduleOf(target));
            }
        }
        return graph;
    }

private:
    QStringList m_files;
};

// One cycle of `graph` as "a → b → a", or empty when there is none.
QString findCycle(const QHash<QString, QSet<QString>>& graph) {
    enum class Mark { Unseen, OnPath, Done };
    QHash<QString, Mark> marks;
    QStringList path;
    QString cycle;
    std::function<bool(const QString&)> visit = [&](const QString& module) {
        marks[module] = Mark::OnPath;
        path.append(module);
        QStringList next(graph.value(module).cbegin(), graph.value(module).cend());
        next.sort();
        for (const QString& target : next) {
            const Mark mark = marks.value(target, Mark::Unseen);
            if (mark == Mark::OnPath) {
                cycle = path.mid(path.indexOf(target)).join(QStringLiteral(" → ")) + QStringLiteral(" → ") +
                        target;
                return true;
            }
            if (mark == Mark::Unseen && visit(target))
                return true;
        }
        path.removeLast();
        marks[module] = Mark::Done;
        return false;
    };
    QStringList modules = graph.keys();
    modules.sort();
    for (const QString& module : modules)
        if (marks.value(module, Mark::Unseen) == Mark::Unseen && visit(module))
            return cycle;
    return {};
}

} // namespace

class TestIncludeGraph : public QObject {
    Q_OBJECT

private slots:
    void theTreeIsRead() {
        const SourceTree tree;
        // The walk must see the engine and its front ends, or the checks below see nothing.
        QVERIFY(tree.files().contains(QStringLiteral("core/stream/read_stream.h")));
        QVERIFY(tree.files().contains(QStringLiteral("app/cli/cli_options.cpp")));
        QVERIFY(tree.moduleGraph()
                    .value(QStringLiteral("core/stream/read_stream"))
                    .contains(QStringLiteral("core/stream/buffer_pool")));
    }

    void aCycleIsFound() {
        // The search itself, on a graph with a cycle two steps long beside an acyclic branch.
        QHash<QString, QSet<QString>> graph;
        graph[QStringLiteral("a")] = {QStringLiteral("b"), QStringLiteral("c")};
        graph[QStringLiteral("b")] = {QStringLiteral("d")};
        graph[QStringLiteral("d")] = {QStringLiteral("b")};
        QCOMPARE(findCycle(graph), QStringLiteral("b → d → b"));
        graph[QStringLiteral("d")].clear();
        QCOMPARE(findCycle(graph), QString());
    }

    void noIncludeCycle() {
        const QString cycle = findCycle(SourceTree().moduleGraph());
        QVERIFY2(cycle.isEmpty(), qPrintable(QStringLiteral("include cycle: ") + cycle));
    }

    void coreBaseIncludesNothingAboveIt() { includesOnly(QStringLiteral("core/base/"), {}); }

    void coreFilesIncludesNothingAboveIt() {
        // The safe files sit below io/, which uses them; they use only the ground and the device's errors.
        includesOnly(QStringLiteral("core/files/"),
                     {QStringLiteral("core/base/"), QStringLiteral("core/device/")});
    }

private:
    // Every module in `folder` includes only modules of `folder` itself and of `below`.
    static void includesOnly(const QString& folder, const QStringList& below) {
        const auto graph = SourceTree().moduleGraph();
        QVERIFY2(std::any_of(graph.keyBegin(), graph.keyEnd(),
                             [&](const QString& module) { return module.startsWith(folder); }),
                 qPrintable(folder + QStringLiteral(" has no sources")));
        for (auto it = graph.cbegin(); it != graph.cend(); ++it) {
            if (!it.key().startsWith(folder))
                continue;
            for (const QString& target : it.value()) {
                const bool allowed = target.startsWith(folder) ||
                                     std::any_of(below.cbegin(), below.cend(), [&](const QString& layer) {
                                         return target.startsWith(layer);
                                     });
                QVERIFY2(allowed, qPrintable(it.key() + QStringLiteral(" includes ") + target));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestIncludeGraph)
#include "tst_include_graph.moc"

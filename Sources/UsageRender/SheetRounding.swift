// SheetRounding.swift — a timesheet's numbers rounded to whole units (minutes, hundredths of an hour) so that every row, every column, every category and the grand total still add up, each number within one unit of its exact value (controlled rounding).
import UsageCore

/// The rounded numbers of a sheet of categories of rows by columns, in whole units.
///
/// Rounding each cell alone makes a row's cells miss its rounded total; rounding the totals as
/// the sums of rounded cells makes a total miss its own value by many units. This is neither:
/// each cell and each sum — row, column, category and category by column, the grand total — is
/// its exact value rounded down or up, and every sum is the sum of its rounded parts. Such a
/// rounding always exists (the sums form two nested families, a totally unimodular system):
/// the sheet is a flow, source → category → row → category-in-column → column → sink, and a
/// flow is made whole by pushing around each cycle of edges still between two units, each push
/// making one edge whole and keeping every edge between its own floor and ceiling.
struct SheetRounding {
    /// Rounded cells: `cells[group][row][column]`.
    let cells: [[[Int64]]]
    let rowTotals: [[Int64]]
    /// Each category per column, and in all.
    let groupCells: [[Int64]]
    let groupTotals: [Int64]
    let columnTotals: [Int64]
    let total: Int64

    /// Rounds `values[group][row][column]` (microseconds, none negative) to whole `unit`s.
    init(_ values: [[[Micros]]], columns: Int, unit: Micros) {
        var graph = Graph(unit: unit)
        let source = graph.node()
        let sink = graph.node()
        let columnNodes = (0..<columns).map { _ in graph.node() }
        var cellEdges: [[[Int]]] = []
        var rowEdges: [[Int]] = []
        var groupCellEdges: [[Int]] = []
        var groupEdges: [Int] = []
        var columnSums = [Micros](repeating: 0, count: columns)
        for group in values {
            let groupNode = graph.node()
            let inColumns = (0..<columns).map { _ in graph.node() }
            var groupSum: Micros = 0
            var groupColumns = [Micros](repeating: 0, count: columns)
            var groupRows: [Int] = []
            var groupCells: [[Int]] = []
            for row in group {
                let rowNode = graph.node()
                groupRows.append(graph.edge(groupNode, rowNode, row.reduce(0, +)))
                groupCells.append(row.indices.map { c in graph.edge(rowNode, inColumns[c], row[c]) })
                for c in row.indices { groupColumns[c] += row[c] }
                groupSum += row.reduce(0, +)
            }
            groupEdges.append(graph.edge(source, groupNode, groupSum))
            groupCellEdges.append((0..<columns).map { c in graph.edge(inColumns[c], columnNodes[c], groupColumns[c]) })
            for c in 0..<columns { columnSums[c] += groupColumns[c] }
            rowEdges.append(groupRows)
            cellEdges.append(groupCells)
        }
        let columnEdges = (0..<columns).map { c in graph.edge(columnNodes[c], sink, columnSums[c]) }
        let totalEdge = graph.edge(sink, source, columnSums.reduce(0, +))
        graph.makeWhole()
        graph.nearest()
        let units = { (e: Int) in graph.flow[e] / unit }
        cells = cellEdges.map { $0.map { $0.map(units) } }
        rowTotals = rowEdges.map { $0.map(units) }
        groupCells = groupCellEdges.map { $0.map(units) }
        groupTotals = groupEdges.map(units)
        columnTotals = columnEdges.map(units)
        total = units(totalEdge)
    }

    /// A flow network whose every node's inflow equals its outflow.
    private struct Graph {
        let unit: Micros
        var nodes = 0
        var from: [Int] = []
        var to: [Int] = []
        var flow: [Micros] = []
        /// Edges by node.
        var incident: [[Int]] = []

        init(unit: Micros) { self.unit = unit }

        mutating func node() -> Int {
            incident.append([])
            nodes += 1
            return nodes - 1
        }

        mutating func edge(_ a: Int, _ b: Int, _ value: Micros) -> Int {
            from.append(a)
            to.append(b)
            flow.append(value)
            exact.append(value)
            incident[a].append(flow.count - 1)
            incident[b].append(flow.count - 1)
            return flow.count - 1
        }

        func isWhole(_ e: Int) -> Bool { flow[e] % unit == 0 }

        /// Pushes flow around cycles of edges not yet whole until all are. At a node every
        /// edge but whole ones sums to a whole number of units, so a node with one such edge has
        /// another: a walk along them always closes a cycle.
        mutating func makeWhole() {
            // An edge made whole stays whole: the first one that is not only moves on.
            var next = 0
            while true {
                while next < flow.count, isWhole(next) { next += 1 }
                guard next < flow.count else { return }
                let first = next
                guard let cycle = cycle(from: first) else { return }
                // +1: along the walk's direction (with an edge pointing that way, against one
                // pointing back). Each direction's push is the least that makes an edge whole.
                func room(_ sign: Int64) -> Micros {
                    cycle.map { e, forward -> Micros in
                        let up = (forward ? sign : -sign) > 0
                        let r = flow[e] % unit
                        return up ? unit - r : r
                    }.min()!
                }
                let (up, down) = (room(1), room(-1))
                let (sign, amount): (Int64, Micros) = up <= down ? (1, up) : (-1, down)
                for (e, forward) in cycle { flow[e] += (forward ? sign : -sign) * amount }
            }
        }

        /// The exact values, kept for `nearest`.
        var exact: [Micros] = []

        /// Moves the whole flow nearer the exact values while it can: an edge may go from its
        /// floor to its ceiling (or back) around a cycle whose moves make the numbers' distance
        /// to their exact values smaller (a negative cycle, found by Bellman–Ford), one unit at
        /// a time. Every number stays its floor or its ceiling, every sum the sum of its parts,
        /// and the numbers end as near their exact values as such a rounding allows (a
        /// min-cost circulation). A sheet too big for that (over a thousand cells: a year of
        /// weeks of twenty tasks) keeps the rounding it has, and so does one that would take
        /// more than 300 moves (each move is a pass of Bellman–Ford).
        mutating func nearest() {
            guard flow.count <= 1500 else { return }
            for _ in 0..<300 {
                guard let cycle = negativeCycle() else { return }
                for (e, up) in cycle { flow[e] += up ? unit : -unit }
            }
        }

        /// A residual move of an edge: up from its floor costs `unit − 2r`, down from its
        /// ceiling `2r − unit` (r: the exact value's remainder), in microseconds of distance.
        private func moves() -> [(edge: Int, up: Bool, from: Int, to: Int, cost: Micros)] {
            flow.indices.compactMap { e in
                let r = exact[e] % unit
                guard r != 0 else { return nil }
                let atFloor = flow[e] == exact[e] - r
                return atFloor ? (e, true, from[e], to[e], unit - 2 * r) : (e, false, to[e], from[e], 2 * r - unit)
            }
        }

        /// A cycle of moves of negative cost, or nil.
        private func negativeCycle() -> [(Int, Bool)]? {
            let arcs = moves()
            var distance = [Micros](repeating: 0, count: nodes)
            var via = [Int](repeating: -1, count: nodes)
            var changed = -1
            for _ in 0..<nodes {
                changed = -1
                for (k, arc) in arcs.enumerated() where distance[arc.from] + arc.cost < distance[arc.to] {
                    distance[arc.to] = distance[arc.from] + arc.cost
                    via[arc.to] = k
                    changed = arc.to
                }
                if changed < 0 { return nil }
            }
            // Still relaxing after as many rounds as nodes: walk back into the cycle, then round it.
            var node = changed
            for _ in 0..<nodes {
                guard via[node] >= 0 else { return nil }
                node = arcs[via[node]].from
            }
            var cycle: [(Int, Bool)] = []
            var at = node
            repeat {
                guard via[at] >= 0, cycle.count <= nodes else { return nil }
                let arc = arcs[via[at]]
                cycle.append((arc.edge, arc.up))
                at = arc.from
            } while at != node
            return cycle
        }

        /// A cycle of edges not yet whole through `start`'s end, as (edge, whether the walk goes
        /// along it); nil if there is none (never, for a balanced network).
        private func cycle(from start: Int) -> [(Int, Bool)]? {
            var path: [(Int, Bool)] = [(start, true)]
            var seenAt: [Int: Int] = [from[start]: 0, to[start]: 1]
            var node = to[start]
            var came = start
            while true {
                guard let next = incident[node].first(where: { $0 != came && !isWhole($0) }) else { return nil }
                let forward = from[next] == node
                let other = forward ? to[next] : from[next]
                path.append((next, forward))
                if let at = seenAt[other] { return Array(path[at...]) }
                seenAt[other] = path.count
                node = other
                came = next
            }
        }
    }
}

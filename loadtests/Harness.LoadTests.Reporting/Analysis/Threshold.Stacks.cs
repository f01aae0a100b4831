namespace Harness.LoadTests.Reporting.Analysis;

// The stack ratio of the threshold language: stack=grpc/stack=soap:p99<1.2x, one stack's figure ÷ the other's for
// each operation × mode that ran on both (docs/report.md, "Thresholds").
internal sealed partial record Threshold
{
    /// <summary>For a stack ratio, the stack divided by (<c>soap</c> in <c>stack=grpc/stack=soap</c>); else null.</summary>
    public string? AgainstStack { get; init; }

    /// <summary>True for a stack ratio: its figure is the scope's stack ÷ <see cref="AgainstStack"/>, its limit a ratio.</summary>
    public bool IsStackRatio => AgainstStack is not null;

    /// <summary>For a stack ratio, the stack divided (<c>grpc</c> in <c>stack=grpc/stack=soap</c>); else null.</summary>
    public string? Stack => IsStackRatio ? Filters["stack"] : null;

    // "stack=grpc,mode=iocp/stack=soap" → ("stack=grpc,mode=iocp", "soap"); a scope without '/' as it is.
    private static (string? Scope, string? Against) SplitAgainst(string expression, string? scope)
    {
        var slash = scope?.IndexOf('/', StringComparison.Ordinal) ?? -1;
        if (slash < 0)
        {
            return (scope, null);
        }

        var right = scope![(slash + 1)..].Trim();
        var equals = right.IndexOf('=', StringComparison.Ordinal);
        if (equals < 0 || !string.Equals(right[..equals].Trim(), "stack", StringComparison.OrdinalIgnoreCase))
        {
            throw Error(expression, $"'{right}' after '/' is not stack=NAME: a ratio compares the stacks ({string.Join(", ", StackComparison.Stacks)}), e.g. stack=grpc/stack=soap:p99<1.2x");
        }

        return (scope[..slash].Trim(), ValidStack(expression, right[(equals + 1)..].Trim()));
    }

    private static void CheckStackScope(string expression, string? seriesId, IReadOnlyDictionary<string, string> filters, string against)
    {
        if (seriesId is not null || !filters.TryGetValue("stack", out var stack))
        {
            throw Error(expression, "a ratio's scope names the stack divided before '/': stack=grpc/stack=soap");
        }

        if (filters.ContainsKey("id"))
        {
            throw Error(expression, "a stack ratio pairs series by operation and mode, so its scope takes no id");
        }

        if (string.Equals(ValidStack(expression, stack), against, StringComparison.Ordinal))
        {
            throw Error(expression, $"both sides of '/' name the stack '{against}'; a ratio compares {string.Join(" and ", StackComparison.Stacks)}");
        }
    }

    private static string ValidStack(string expression, string stack)
    {
        var name = stack.ToLowerInvariant();
        return StackComparison.Stacks.Contains(name)
            ? name
            : throw Error(expression, $"unknown stack '{stack}' in a ratio; the stacks are {string.Join(", ", StackComparison.Stacks)}");
    }

    private static Threshold StackRatioThreshold(
        string expression, IReadOnlyDictionary<string, string> filters, string against, ThresholdMetric metric, double? percentile, bool intended,
        ThresholdOperator op, double value, string unit)
    {
        if (metric is ThresholdMetric.ErrorCount or ThresholdMetric.Knee or ThresholdMetric.StarvationThreads || IsSoakMetric(metric))
        {
            throw Error(expression, "a stack ratio takes mean, p<N>, max, co-mean, co-p<N>, co-max, rps, threads, queue, ctxsw, cpu or memory");
        }

        if (unit != "x")
        {
            throw Error(expression, $"a stack ratio's value is a ratio in x (e.g. p99<1.2x), not '{(unit.Length == 0 ? "no unit" : unit)}'");
        }

        if (value <= 0)
        {
            throw Error(expression, "a ratio is above 0");
        }

        var filtersWithStack = new Dictionary<string, string>(filters, StringComparer.Ordinal) { ["stack"] = filters["stack"].ToLowerInvariant() };
        return new Threshold(expression, null, filtersWithStack, metric, percentile, intended, op, value) { AgainstStack = against };
    }

    /// <summary>
    /// One result per operation × mode that both stacks ran within the scope: the scope's stack's figure ÷ the other's
    /// (<see cref="StackComparison.Between"/>), judged on the ratio; none such fails, as a scope that matches nothing does.
    /// </summary>
    internal IEnumerable<ThresholdResult> JudgeStacks(IReadOnlyList<SeriesSummary> summaries)
    {
        var stack = Stack!;
        var others = Filters.Where(f => f.Key != "stack").ToList();
        bool InScope(SeriesSummary s) =>
            (!Intended || s.IsOpenModel) && others.All(f => string.Equals(f.Value, FieldOf(s.Series, f.Key), StringComparison.OrdinalIgnoreCase));
        var pairs = StackComparison.Units([.. summaries.Select(s => s.Series.Mode).Distinct()], summaries)
            .Where(u => u.ByStack.ContainsKey(stack) && u.ByStack.ContainsKey(AgainstStack!)
                && u.ByStack[stack].All(InScope) && u.ByStack[AgainstStack!].All(InScope))
            .ToList();
        if (pairs.Count == 0)
        {
            yield return new ThresholdResult(this, null, null, Verdict.Failed, $"no operation × mode within the scope ran on both {stack} and {AgainstStack}");
            yield break;
        }

        foreach (var (_, _, byStack) in pairs)
        {
            var (value, baseline) = (byStack[stack], byStack[AgainstStack!]);
            var id = $"{ModeComparison.ModeIdOf(value[0].Series)} ÷ {ModeComparison.ModeIdOf(baseline[0].Series)}";
            var ratio = StackComparison.Between(value, baseline, Measure);
            var what = $"{MetricName} {stack} ÷ {AgainstStack}";
            yield return ratio.Ratio is { } r
                ? new ThresholdResult(this, id, r, ThresholdResult.Of(IsMetBy(r)),
                    $"{what} = {ratio.Text}{(ratio.Estimate is { } e ? $" at {e.Confidence * 100:0} %" : string.Empty)}, limit {OperatorText} {FormatLimit()}")
                : new ThresholdResult(this, id, null, Verdict.Failed, $"{what}: not measured on both stacks");
        }
    }
}

namespace Harness.LoadTests.Running;

/// <summary>
/// Lone-call times until they settle: the median of the last <see cref="Window"/> values has moved less than
/// <see cref="Tolerance"/> from the median of the <see cref="Window"/> before them.
/// </summary>
internal sealed class StableMedian
{
    public const int Window = 5;
    public const double Tolerance = 0.05;

    private readonly List<double> _values = [];

    public int Count => _values.Count;

    /// <summary>True once the last two windows agree within <see cref="Tolerance"/>.</summary>
    public bool IsStable { get; private set; }

    /// <summary>The median of the last two windows (of every value, when there are fewer); NaN when empty.</summary>
    public double Median => MedianOf(_values.TakeLast(Window * 2));

    /// <returns>True when the values have now settled.</returns>
    public bool Add(double value)
    {
        _values.Add(value);
        if (_values.Count >= Window * 2)
        {
            var last = MedianOf(_values.TakeLast(Window));
            var before = MedianOf(_values.SkipLast(Window).TakeLast(Window));
            IsStable = before > 0 && Math.Abs(last - before) / before < Tolerance;
        }

        return IsStable;
    }

    private static double MedianOf(IEnumerable<double> values)
    {
        var sorted = values.Order().ToList();
        return sorted.Count == 0 ? double.NaN
            : sorted.Count % 2 == 1 ? sorted[sorted.Count / 2]
            : (sorted[(sorted.Count / 2) - 1] + sorted[sorted.Count / 2]) / 2;
    }
}

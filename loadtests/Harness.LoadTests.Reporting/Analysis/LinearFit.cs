namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>The least-squares line y = <see cref="Intercept"/> + <see cref="Slope"/> · x through a set of points.</summary>
/// <param name="Points">How many points it was fitted to.</param>
internal sealed record LinearFit(double Slope, double Intercept, int Points)
{
    public double At(double x) => Intercept + (Slope * x);

    /// <summary>
    /// Ordinary least squares: slope = Σ(x − x̄)(y − ȳ) ÷ Σ(x − x̄)², intercept = ȳ − slope · x̄. Null with fewer
    /// than two points or when every x is the same (no line is defined).
    /// </summary>
    public static LinearFit? Of(IEnumerable<(double X, double Y)> points)
    {
        ArgumentNullException.ThrowIfNull(points);
        var list = points.Where(p => double.IsFinite(p.X) && double.IsFinite(p.Y)).ToList();
        if (list.Count < 2)
        {
            return null;
        }

        double meanX = list.Average(p => p.X), meanY = list.Average(p => p.Y);
        double sxy = 0, sxx = 0;
        foreach (var (x, y) in list)
        {
            sxy += (x - meanX) * (y - meanY);
            sxx += (x - meanX) * (x - meanX);
        }

        if (sxx == 0)
        {
            return null;
        }

        var slope = sxy / sxx;
        return new LinearFit(slope, meanY - (slope * meanX), list.Count);
    }
}

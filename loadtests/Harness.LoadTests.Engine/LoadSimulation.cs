namespace Harness.LoadTests.Engine;

/// <summary>
/// One stage of a scenario's load, named as NBomber 4's <c>Simulation</c> stages are. Closed-model stages set how
/// many copies (virtual users) loop over the scenario; open-model stages set how many requests start per interval,
/// whether or not earlier ones have finished. A scenario's stages run one after another.
/// </summary>
public abstract record LoadSimulation(TimeSpan During)
{
    /// <summary>True for a stage that sets an arrival rate (open model); false for one that sets virtual users or pauses.</summary>
    public abstract bool IsOpenModel { get; }

    /// <summary>Copies change linearly from the previous stage's count (0 at the start) to <paramref name="Copies"/>.</summary>
    public sealed record RampingConstant(int Copies, TimeSpan During) : LoadSimulation(During)
    {
        /// <inheritdoc/>
        public override bool IsOpenModel => false;
    }

    /// <summary><paramref name="Copies"/> copies loop for the whole stage.</summary>
    public sealed record KeepConstant(int Copies, TimeSpan During) : LoadSimulation(During)
    {
        /// <inheritdoc/>
        public override bool IsOpenModel => false;
    }

    /// <summary><paramref name="Rate"/> requests start per <paramref name="Interval"/>, evenly spaced.</summary>
    public sealed record Inject(int Rate, TimeSpan Interval, TimeSpan During) : LoadSimulation(During)
    {
        /// <inheritdoc/>
        public override bool IsOpenModel => true;
    }

    /// <summary>
    /// A burst, as NBomber 5's <c>IterationsForConstant</c>: <paramref name="Copies"/> copies start at once and each runs
    /// <paramref name="Iterations"/> requests one after another, then stops. The stage ends when every copy is done,
    /// or at <paramref name="During"/> (an upper bound), whichever is first; the next stage starts when it ends.
    /// Copies of an earlier stage stop when it starts (each finishes its current request), and a ramp after it
    /// starts from 0, as after a pause.
    /// </summary>
    public sealed record IterationsForConstant(int Copies, int Iterations, TimeSpan During) : LoadSimulation(During)
    {
        /// <inheritdoc/>
        public override bool IsOpenModel => false;
    }

    /// <summary>The rate changes linearly from the previous stage's rate (0 at the start) to <paramref name="Rate"/>.</summary>
    public sealed record RampingInject(int Rate, TimeSpan Interval, TimeSpan During) : LoadSimulation(During)
    {
        /// <inheritdoc/>
        public override bool IsOpenModel => true;
    }

    /// <summary>No load for the stage.</summary>
    public sealed record Pause(TimeSpan During) : LoadSimulation(During)
    {
        /// <inheritdoc/>
        public override bool IsOpenModel => false;
    }
}

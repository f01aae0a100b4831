namespace Harness.LoadTests.Engine.Tests;

public sealed class LoadPlanTests
{
    private static TimeSpan S(double seconds) => TimeSpan.FromSeconds(seconds);

    [Fact]
    public void RampingConstant_ramps_linearly_from_zero()
    {
        var plan = LoadPlan.Create("s", [new LoadSimulation.RampingConstant(10, S(2))]);

        Assert.Equal(0, plan.TargetCopies(S(0)));
        Assert.Equal(3, plan.TargetCopies(S(0.5)));
        Assert.Equal(5, plan.TargetCopies(S(1)));
        Assert.Equal(10, plan.TargetCopies(S(1.99)));
        Assert.Equal(0, plan.TargetCopies(S(2)));
        Assert.Equal(10, plan.MaxCopies);
        Assert.Equal(S(2), plan.Duration);
    }

    [Fact]
    public void Closed_stages_ramp_from_the_previous_stage_and_pause_drops_to_zero()
    {
        var plan = LoadPlan.Create("s",
        [
            new LoadSimulation.RampingConstant(10, S(2)),
            new LoadSimulation.KeepConstant(10, S(1)),
            new LoadSimulation.RampingConstant(4, S(2)),
            new LoadSimulation.Pause(S(1)),
            new LoadSimulation.RampingConstant(6, S(2)),
        ]);

        Assert.Equal(5, plan.TargetCopies(S(1)));
        Assert.Equal(10, plan.TargetCopies(S(2.5)));
        Assert.Equal(7, plan.TargetCopies(S(4)));
        Assert.Equal(0, plan.TargetCopies(S(5.5)));
        Assert.Equal(3, plan.TargetCopies(S(7)));
        Assert.Equal(S(8), plan.Duration);
        Assert.False(plan.IsOpenModel);
    }

    [Fact]
    public void KeepConstant_holds_from_its_start_whatever_came_before()
    {
        var plan = LoadPlan.Create("s", [new LoadSimulation.Pause(S(1)), new LoadSimulation.KeepConstant(5, S(1))]);

        Assert.Equal(0, plan.TargetCopies(S(0.5)));
        Assert.Equal(5, plan.TargetCopies(S(1)));
        Assert.Equal(5, plan.TargetCopies(S(1.9)));
    }

    [Fact]
    public void Inject_spaces_arrivals_evenly_within_each_interval()
    {
        var plan = LoadPlan.Create("s", [new LoadSimulation.Inject(20, S(1), S(2))]);

        Assert.True(plan.IsOpenModel);
        Assert.Equal(40, plan.TotalArrivals);
        Assert.Equal(20, plan.TargetRatePerSecond(S(1.5)), 9);
        Assert.Equal(TimeSpan.Zero, plan.ArrivalTime(0));
        Assert.Equal(TimeSpan.FromMilliseconds(50), plan.ArrivalTime(1));
        Assert.Equal(TimeSpan.FromMilliseconds(1950), plan.ArrivalTime(39));
    }

    [Fact]
    public void Inject_rate_is_per_interval()
    {
        var plan = LoadPlan.Create("s", [new LoadSimulation.Inject(10, S(2), S(4))]);

        Assert.Equal(5, plan.TargetRatePerSecond(S(1)), 9);
        Assert.Equal(20, plan.TotalArrivals);
        Assert.Equal(TimeSpan.FromMilliseconds(200), plan.ArrivalTime(1));
    }

    [Fact]
    public void RampingInject_ramps_the_rate_and_places_arrivals_on_the_integral()
    {
        var plan = LoadPlan.Create("s", [new LoadSimulation.RampingInject(20, S(1), S(2))]);

        // Rate 10 t per second, so arrivals by t are 5 t²: 20 in all, the 5th at 1 s.
        Assert.Equal(10, plan.TargetRatePerSecond(S(1)), 9);
        Assert.Equal(20, plan.TotalArrivals);
        Assert.Equal(5, plan.ArrivalsBy(S(1)), 9);
        Assert.Equal(S(1), plan.ArrivalTime(5));
        Assert.Equal(TimeSpan.Zero, plan.ArrivalTime(0));
    }

    [Fact]
    public void Open_stages_ramp_from_the_previous_rate_up_and_down()
    {
        var plan = LoadPlan.Create("s",
        [
            new LoadSimulation.Inject(10, S(1), S(1)),
            new LoadSimulation.RampingInject(30, S(1), S(1)),
            new LoadSimulation.RampingInject(0, S(1), S(1)),
        ]);

        Assert.Equal(10, plan.TargetRatePerSecond(S(0.5)), 9);
        Assert.Equal(20, plan.TargetRatePerSecond(S(1.5)), 9);
        Assert.Equal(15, plan.TargetRatePerSecond(S(2.5)), 9);
        Assert.Equal(10 + 20 + 15, plan.TotalArrivals);
        Assert.Equal(S(1), plan.ArrivalTime(10));
        Assert.Equal(S(2), plan.ArrivalTime(30));
    }

    [Fact]
    public void Arrival_times_rise_and_match_the_running_total()
    {
        var plan = LoadPlan.Create("s",
        [
            new LoadSimulation.RampingInject(7, S(1), S(1.3)),
            new LoadSimulation.Pause(S(0.5)),
            new LoadSimulation.RampingInject(13, S(0.5), S(1.1)),
            new LoadSimulation.RampingInject(0, S(1), S(0.7)),
        ]);

        var previous = TimeSpan.MinValue;
        for (long k = 0; k < plan.TotalArrivals; k++)
        {
            var at = plan.ArrivalTime(k);
            Assert.True(at >= previous, $"arrival {k} at {at} before {previous}");
            Assert.True(at < plan.Duration);
            Assert.False(at >= S(1.3) && at < S(1.8), $"arrival {k} at {at} falls in the pause");
            if (k > 0)
            {
                Assert.Equal(k, plan.ArrivalsBy(at), 3);
            }

            previous = at;
        }

        Assert.Throws<ArgumentOutOfRangeException>(() => plan.ArrivalTime(plan.TotalArrivals));
    }

    [Fact]
    public void A_pause_resets_the_rate_a_later_ramp_starts_from()
    {
        var plan = LoadPlan.Create("s",
        [
            new LoadSimulation.Inject(10, S(1), S(1)),
            new LoadSimulation.Pause(S(1)),
            new LoadSimulation.RampingInject(10, S(1), S(2)),
        ]);

        Assert.Equal(0, plan.TargetRatePerSecond(S(1.5)), 9);
        Assert.Equal(5, plan.TargetRatePerSecond(S(3)), 9);
        Assert.Equal(20, plan.TotalArrivals);
        Assert.Equal(S(2), plan.ArrivalTime(10));
    }

    [Fact]
    public void A_burst_is_its_own_stage_and_a_ramp_after_it_starts_from_zero()
    {
        var plan = LoadPlan.Create("s",
        [
            new LoadSimulation.KeepConstant(4, S(1)),
            new LoadSimulation.IterationsForConstant(10, 2, S(5)),
            new LoadSimulation.RampingConstant(4, S(2)),
        ]);

        Assert.Null(plan.BurstAt(S(0.5)));
        Assert.Equal(new LoadPlan.Burst(10, 2, S(1), S(6)), plan.BurstAt(S(1)));
        Assert.Equal(new LoadPlan.Burst(10, 2, S(1), S(6)), plan.BurstAt(S(5.9)));
        Assert.Null(plan.BurstAt(S(6)));
        Assert.Equal(2, plan.TargetCopies(S(7)));
        Assert.Equal(S(1), plan.StageEnd(S(0.2)));
        Assert.Equal(S(6), plan.StageEnd(S(1)));
        Assert.Equal(S(8), plan.StageEnd(S(9)));
        Assert.Equal(S(8), plan.Duration);
        Assert.Equal(4, plan.MaxCopies);
        Assert.False(plan.IsOpenModel);
    }

    public static TheoryData<LoadSimulation[], string> InvalidPlans => new()
    {
        { [], "no load simulations" },
        { [new LoadSimulation.KeepConstant(1, TimeSpan.Zero)], "stage 1 (KeepConstant): During must be greater than zero" },
        { [new LoadSimulation.Pause(S(1)), new LoadSimulation.Pause(S(-1))], "stage 2 (Pause): During must be greater than zero" },
        { [new LoadSimulation.RampingConstant(-1, S(1))], "stage 1 (RampingConstant): Copies must be zero or more, was -1" },
        { [new LoadSimulation.Inject(-5, S(1), S(1))], "stage 1 (Inject): Rate must be zero or more, was -5" },
        { [new LoadSimulation.IterationsForConstant(0, 1, S(1))], "stage 1 (IterationsForConstant): Copies must be at least 1, was 0" },
        { [new LoadSimulation.IterationsForConstant(10, 0, S(1))], "stage 1 (IterationsForConstant): Iterations must be at least 1, was 0" },
        { [new LoadSimulation.IterationsForConstant(10, 1, TimeSpan.Zero)], "stage 1 (IterationsForConstant): During must be greater than zero" },
        {
            [new LoadSimulation.IterationsForConstant(10, 1, S(5)), new LoadSimulation.RampingInject(5, S(1), S(1))],
            "mixes a closed-model stage (stage 1, IterationsForConstant) with an open-model stage (stage 2, RampingInject)"
        },
        { [new LoadSimulation.RampingInject(5, TimeSpan.Zero, S(1))], "stage 1 (RampingInject): Interval must be greater than zero" },
        {
            [new LoadSimulation.KeepConstant(1, S(1)), new LoadSimulation.Pause(S(1)), new LoadSimulation.Inject(1, S(1), S(1))],
            "mixes a closed-model stage (stage 1, KeepConstant) with an open-model stage (stage 3, Inject)"
        },
    };

    [Theory]
    [MemberData(nameof(InvalidPlans))]
    public void Invalid_stages_are_refused_with_the_stage_and_limit(LoadSimulation[] stages, string message)
    {
        var error = Assert.Throws<ArgumentException>(() => LoadPlan.Create("checkout", stages));

        Assert.Contains(message, error.Message, StringComparison.Ordinal);
        Assert.Contains("'checkout'", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Pauses_mix_with_either_model()
    {
        var closed = LoadPlan.Create("s", [new LoadSimulation.Pause(S(1)), new LoadSimulation.KeepConstant(1, S(1))]);
        var open = LoadPlan.Create("s", [new LoadSimulation.Pause(S(1)), new LoadSimulation.Inject(1, S(1), S(1))]);

        Assert.False(closed.IsOpenModel);
        Assert.True(open.IsOpenModel);
    }
}

namespace Harness.LoadTests.Engine.Tests;

public sealed class LoadSimulationsTests
{
    private static TimeSpan S(double seconds) => TimeSpan.FromSeconds(seconds);

    [Fact]
    public void A_ramp_cut_part_way_ramps_to_the_value_it_had_reached()
    {
        LoadSimulation[] stages = [new LoadSimulation.RampingConstant(10, S(10)), new LoadSimulation.KeepConstant(10, S(10))];

        var prefix = LoadSimulations.Prefix(stages, S(4));

        Assert.Equal([new LoadSimulation.RampingConstant(4, S(4))], prefix);
    }

    [Fact]
    public void A_cut_ramp_starts_from_the_value_the_stage_before_it_ended_on()
    {
        LoadSimulation[] stages =
        [
            new LoadSimulation.KeepConstant(10, S(2)),
            new LoadSimulation.RampingConstant(20, S(10)),
            new LoadSimulation.RampingConstant(0, S(10)),
        ];

        Assert.Equal([stages[0], new LoadSimulation.RampingConstant(15, S(5))], LoadSimulations.Prefix(stages, S(7)));
        Assert.Equal([stages[0], stages[1], new LoadSimulation.RampingConstant(16, S(2))], LoadSimulations.Prefix(stages, S(14)));
    }

    [Fact]
    public void A_cut_at_a_stage_boundary_keeps_whole_stages_only()
    {
        LoadSimulation[] stages = [new LoadSimulation.RampingConstant(10, S(10)), new LoadSimulation.KeepConstant(10, S(10))];

        Assert.Equal([stages[0]], LoadSimulations.Prefix(stages, S(10)));
    }

    [Fact]
    public void A_prefix_as_long_as_the_profile_or_longer_is_the_whole_profile()
    {
        LoadSimulation[] stages = [new LoadSimulation.Pause(S(1)), new LoadSimulation.RampingConstant(8, S(4))];

        Assert.Equal(stages, LoadSimulations.Prefix(stages, S(5)));
        Assert.Equal(stages, LoadSimulations.Prefix(stages, TimeSpan.FromHours(1)));
    }

    [Fact]
    public void Constant_stages_and_pauses_are_shortened()
    {
        Assert.Equal([new LoadSimulation.Pause(S(2))], LoadSimulations.Prefix([new LoadSimulation.Pause(S(5)), new LoadSimulation.KeepConstant(3, S(5))], S(2)));
        Assert.Equal(
            [new LoadSimulation.Inject(10, S(2), S(3))],
            LoadSimulations.Prefix([new LoadSimulation.Inject(10, S(2), S(8))], S(3)));
    }

    [Fact]
    public void Open_model_ramps_are_cut_at_the_rate_reached_per_their_own_interval()
    {
        LoadSimulation[] stages =
        [
            new LoadSimulation.Inject(10, S(1), S(2)),
            new LoadSimulation.RampingInject(60, S(2), S(4)),
        ];

        // 10/s ramping to 30/s over 4 s: 20/s two seconds in, which is 40 per 2 s interval.
        var prefix = LoadSimulations.Prefix(stages, S(4));

        Assert.Equal([stages[0], new LoadSimulation.RampingInject(40, S(2), S(2))], prefix);
        var whole = LoadPlan.Create("s", stages);
        var cut = LoadPlan.Create("s", prefix);
        for (var t = 0.0; t < 4; t += 0.25)
        {
            Assert.Equal(whole.TargetRatePerSecond(S(t)), cut.TargetRatePerSecond(S(t)), 9);
        }

        Assert.Equal(whole.ArrivalsBy(S(4)), cut.TotalArrivals, 9);
    }

    [Fact]
    public void A_burst_is_kept_whole()
    {
        LoadSimulation[] burst = [new LoadSimulation.IterationsForConstant(10, 1, TimeSpan.FromMinutes(5))];
        LoadSimulation[] stages =
        [
            new LoadSimulation.Pause(S(1)),
            new LoadSimulation.IterationsForConstant(10, 1, S(30)),
            new LoadSimulation.KeepConstant(5, S(10)),
        ];

        Assert.Equal(burst, LoadSimulations.Prefix(burst, S(30)));
        Assert.Equal(burst, LoadSimulations.Prefix(burst, S(0.001)));
        Assert.Equal([stages[0], stages[1]], LoadSimulations.Prefix(stages, S(2)));
        Assert.Equal([stages[0]], LoadSimulations.Prefix(stages, S(1)));
    }

    [Fact]
    public void A_ramp_after_a_burst_is_cut_as_starting_from_zero()
    {
        LoadSimulation[] stages = [new LoadSimulation.IterationsForConstant(10, 1, S(2)), new LoadSimulation.RampingConstant(8, S(4))];

        Assert.Equal([stages[0], new LoadSimulation.RampingConstant(2, S(1))], LoadSimulations.Prefix(stages, S(3)));
    }

    [Fact]
    public void A_zero_length_gives_no_stages_and_a_negative_one_is_refused()
    {
        LoadSimulation[] stages = [new LoadSimulation.KeepConstant(5, S(10))];

        Assert.Empty(LoadSimulations.Prefix(stages, TimeSpan.Zero));
        Assert.Empty(LoadSimulations.Prefix([], S(10)));
        var error = Assert.Throws<ArgumentOutOfRangeException>(() => LoadSimulations.Prefix(stages, S(-1)));
        Assert.Contains("must be zero or more", error.Message, StringComparison.Ordinal);
    }
}

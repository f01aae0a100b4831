namespace Harness.KubeletStandIn;

internal static class Program
{
    public static int Main() => 0;
}

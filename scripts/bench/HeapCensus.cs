#:package Microsoft.Diagnostics.Runtime
// One step of scripts/heap-census.sh: suspends a running .NET process, walks its GC heap with ClrMD and prints the
// objects reachable from its roots (the live set, what no collection can free) grouped by type, largest first.
// Usage: HeapCensus PID [top=40] [divisor=0] [strings]
// With a divisor (e.g. the calls in flight) each row also gives bytes and objects per call; with "strings" it also
// lists the live strings' most frequent values (which header or id each call keeps).
using Microsoft.Diagnostics.Runtime;

var pid = int.Parse(args[0]);
var top = args.Length > 1 ? int.Parse(args[1]) : 40;
var divisor = args.Length > 2 ? double.Parse(args[2]) : 0;
var listStrings = args.Length > 3 && args[3] == "strings";
var stringValues = new Dictionary<string, (long Count, long Bytes)>();

using var target = DataTarget.AttachToProcess(pid, suspend: true);
var clr = target.ClrVersions[0];
// ClrMD looks the DAC up by a build index that Linux runtime packages do not always carry; the runtime's own
// directory holds the matching one.
var dac = Path.Combine(Path.GetDirectoryName(clr.ModuleInfo.FileName)!, "libmscordaccore.so");
using var runtime = File.Exists(dac) ? clr.CreateRuntime(dac, ignoreMismatch: true) : clr.CreateRuntime();
var heap = runtime.Heap;

// Mark: every object reachable from a root. A bit per object address would need the heap's range; a HashSet of
// addresses is simpler and fits (a few million objects).
var live = new HashSet<ulong>();
var stack = new Stack<ulong>();
foreach (var root in heap.EnumerateRoots())
{
    if (root.Object.Address != 0 && live.Add(root.Object.Address))
    {
        stack.Push(root.Object.Address);
    }
}
while (stack.Count > 0)
{
    var obj = heap.GetObject(stack.Pop());
    if (!obj.IsValid)
    {
        continue;
    }
    foreach (var reference in obj.EnumerateReferenceAddresses(carefully: true))
    {
        if (reference != 0 && live.Add(reference))
        {
            stack.Push(reference);
        }
    }
}

var byType = new Dictionary<string, (long Count, long Bytes)>();
long totalBytes = 0, deadBytes = 0;
foreach (var obj in heap.EnumerateObjects())
{
    if (!obj.IsValid || obj.IsFree)
    {
        continue;
    }
    var size = (long)obj.Size;
    if (!live.Contains(obj.Address))
    {
        deadBytes += size;
        continue;
    }
    totalBytes += size;
    var name = obj.Type?.Name ?? "?";
    byType.TryGetValue(name, out var entry);
    byType[name] = (entry.Count + 1, entry.Bytes + size);
    if (listStrings && obj.Type?.IsString == true)
    {
        // Values that differ per call (ids) would each count once: group by their first 24 characters.
        var value = obj.AsString(maxLength: 24) ?? "";
        stringValues.TryGetValue(value, out var seen);
        stringValues[value] = (seen.Count + 1, seen.Bytes + size);
    }
}

Console.WriteLine($"live {totalBytes / 1048576.0:F1} MiB in {live.Count:N0} objects; unreachable (garbage) {deadBytes / 1048576.0:F1} MiB");
if (divisor > 0)
{
    Console.WriteLine($"per call ({divisor:N0}): {totalBytes / divisor:F0} bytes, {live.Count / divisor:F1} objects");
}
Console.WriteLine(divisor > 0 ? $"{"MiB",8} {"count",10} {"B/call",8} {"n/call",7}  type" : $"{"MiB",8} {"count",10}  type");
foreach (var (name, (count, bytes)) in byType.OrderByDescending(p => p.Value.Bytes).Take(top))
{
    Console.WriteLine(divisor > 0
        ? $"{bytes / 1048576.0,8:F1} {count,10:N0} {bytes / divisor,8:F0} {count / divisor,7:F2}  {name}"
        : $"{bytes / 1048576.0,8:F1} {count,10:N0}  {name}");
}
if (listStrings)
{
    Console.WriteLine();
    Console.WriteLine("live strings by their first 24 characters:");
    // Values seen fewer than 10 times (ids, one per call) are grouped by their length instead.
    var grouped = stringValues
        .GroupBy(p => p.Value.Count >= 10 ? p.Key : $"<{p.Key.Length}-character values seen < 10 times>")
        .Select(g => (Value: g.Key, Count: g.Sum(p => p.Value.Count), Bytes: g.Sum(p => p.Value.Bytes)));
    foreach (var (value, count, bytes) in grouped.OrderByDescending(p => p.Bytes).Take(top))
    {
        Console.WriteLine($"{bytes / 1048576.0,8:F1} {count,10:N0}  \"{value}\"");
    }
}

namespace Harness.LoadTests.Clients;

/// <summary>
/// The last request a client encoded, with the arguments it was encoded from: a run sends the same arguments on every
/// call, so each distinct request is serialized once. Swapped as one reference, so concurrent callers never see one
/// request's arguments with another's bytes; two callers racing on new arguments merely encode them twice.
/// </summary>
internal sealed record EncodedRequest<TKey>(TKey Key, byte[] Body)
{
    public static byte[] Reuse(ref EncodedRequest<TKey>? last, TKey key, Func<TKey, byte[]> encode)
    {
        if (last is { } cached && EqualityComparer<TKey>.Default.Equals(cached.Key, key))
        {
            return cached.Body;
        }

        var fresh = new EncodedRequest<TKey>(key, encode(key));
        last = fresh;
        return fresh.Body;
    }
}

# The scripts' one median, for `awk "$(cat scripts/lib/median.awk)"'…program…'`.
# median(a, n): the median of a[1..n], numbers. Sorts a[1..n] in place (insertion sort: a script's few values),
# so a[1] and a[n] are then the minimum and the maximum.
function median(a, n,   i, j, t) {
  for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

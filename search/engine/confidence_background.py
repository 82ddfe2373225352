"""The background the confidence reads a query against: everyday sentences on many subjects, in
English, Japanese and Traditional Chinese, none about anything the product or a workspace holds.

A query's cosine similarities to them, summed up as its model's calibration reads them (their
mean, or their mean over the sentences in the query's own script: search/engine/confidence.py
query_background), say how close that query sits to text in general under its model. E5's
cosines run high for unrelated text, and some questions ("How long could the virus stay alive
on doorknobs") sit close to everything, so a row's own cosine alone cannot tell "near" from
"relevant" the same way for every query; the row's cosine over the query's background can (score normalisation
against a cohort, as speaker verification does). Written once, never fitted on any judged set
(bench/confidence_fit.py fits the weights that read it); change them and the calibration must
be fitted again.
"""

from __future__ import annotations

import re

import numpy as np

from ingestion.segmentation import is_japanese

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def text_script(text: str) -> str:
    """"ja" (any kana, as the keyword tokenizer tells Japanese), "zh" (Han without kana) or "en"
    (neither): the script of a query, or of a background sentence, for the background statistic
    that reads the query's own script."""
    if is_japanese(text):
        return "ja"
    return "zh" if _HAN.search(text) else "en"


BACKGROUND = [
    "The train to the airport leaves every fifteen minutes from platform two.",
    "Preheat the oven to 180 degrees and bake the bread for forty minutes.",
    "The team scored twice in the second half and won the league title.",
    "Interest rates rose again this quarter, and mortgage payments went up.",
    "Water the tomato plants in the morning so the leaves dry before night.",
    "The museum's new exhibition shows paintings from the eighteenth century.",
    "Our office is closed on public holidays and reopens the next working day.",
    "The concert was cancelled because of the storm warning.",
    "Children under twelve must be accompanied by an adult in the pool.",
    "He repaired the bicycle's brakes and replaced the front tyre.",
    "The contract may be terminated by either party with thirty days' notice.",
    "Volcanic eruptions can change the weather around the world for a year.",
    "She learned to play the violin when she was six years old.",
    "The hotel offers free breakfast and parking for guests.",
    "Mount the shelf on the wall with four screws and check that it is level.",
    "The novel tells the story of a family over three generations.",
    "Prices at the farmers' market are lower in the late afternoon.",
    "The software update fixes several bugs and improves battery life.",
    "Regular exercise and enough sleep help reduce stress.",
    "The river flooded the valley after a week of heavy rain.",
    "明日の天気は晴れのち曇りで、午後から風が強くなる見込みです。",
    "駅前の商店街では毎年夏に盆踊り大会が開かれます。",
    "新しい図書館は月曜日が休館日です。",
    "この料理は醤油とみりんで味を付けてから弱火で煮込みます。",
    "彼は大学で経済学を学び、銀行に就職しました。",
    "富士山の山頂付近では七月でも雪が残っていることがあります。",
    "会議の資料は前日までにメールで共有してください。",
    "地震が起きたら、まず机の下に隠れて頭を守りましょう。",
    "そのサッカー選手は移籍後すぐにチームの中心になった。",
    "江戸時代には多くの浮世絵師が活躍した。",
    "引っ越しの際は住所変更の手続きを忘れずに行ってください。",
    "この美術館では写真撮影が禁止されています。",
    "毎朝ジョギングをしてから朝ごはんを食べる。",
    "電車が遅れたため、授業に十分遅刻した。",
    "古い家を改装して小さなカフェを開いた。",
    "台北的捷運每天早上六點開始營運。",
    "這家餐廳的牛肉麵湯頭濃郁，常常需要排隊。",
    "颱風來臨前，請準備好飲用水和手電筒。",
    "香港的天星小輪連接九龍和香港島。",
    "他在大學主修歷史，畢業後成為中學老師。",
    "這部電影改編自一本暢銷小說。",
    "市政府計劃在河邊興建新的公園。",
    "請在截止日期前繳交申請表格及相關文件。",
    "籃球比賽在最後一分鐘逆轉勝。",
    "茶葉應存放在陰涼乾燥的地方。",
    "古代絲綢之路連接了東方與西方的貿易。",
    "這台洗衣機有節能模式，可以減少用電。",
    "她每個週末都去山上健行。",
    "這座寺廟已有三百多年的歷史。",
    "圖書館的自修室晚上十點關閉。",
]
# Each sentence's script (text_script): 20 English, 15 Japanese, 15 Traditional Chinese.
BACKGROUND_SCRIPTS = tuple(text_script(sentence) for sentence in BACKGROUND)
_SCRIPTS = np.array(BACKGROUND_SCRIPTS)

# The ways of summing up a query's cosines to BACKGROUND into one number (search/engine/confidence.py
# BACKGROUND_STATISTIC says which one each model's calibration reads): "mean" (all 50), "script"
# (their mean over the sentences in the query's own script: E5's and USE's cosines run lower
# across languages than within one), "nearestN" (the mean of the N nearest: the "adaptive"
# cohort of speaker verification's score normalisation, which takes the impostors nearest the
# test utterance).
BACKGROUND_STATISTICS = ("mean", "script", "nearest10", "nearest5", "nearest1")


def background_statistic(name: str, cosines: np.ndarray, script: str) -> float:
    """A query's cosines to BACKGROUND (in its order) summed up as statistic `name`;
    `script` is the query's (text_script)."""
    if name == "mean":
        return float(cosines.mean())
    if name == "script":
        return float(cosines[_SCRIPTS == script].mean())
    nearest = {"nearest10": 10, "nearest5": 5, "nearest1": 1}[name]
    return float(np.sort(cosines)[-nearest:].mean())

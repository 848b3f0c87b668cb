//! Stop words per language, as people write them; each analyzer folds them with its own
//! normalizer before comparing, so one spelling here covers every variant (harakat, hamza,
//! nukta, accents).
//!
//! Each list is one string of words separated by whitespace.
//!
//! The lists are short on purpose: function words only. Words that carry meaning in error
//! reports are kept even when common ("no", "not", "pas", "नहीं", "لا"), because
//! "no kernel image" or "not supported" must still match.

pub const ARABIC: &str = "\
    في من إلى الى على عن مع عند عندما حتى منذ خلال بين بعد قبل حول لدى نحو \
    ضد دون ثم أو أم و ف ب ل ك أن إن أنه إنه أنها إنها كان كانت يكون تكون \
    قد لقد هذا هذه ذلك تلك هؤلاء هنا هناك الذي التي الذين اللذان اللتان \
    اللواتي ما ماذا لماذا كيف متى أين هل كل بعض أي أيضا إذا إذ لو لكن \
    بل كما مثل هو هي هم هن أنا نحن أنت أنتم له لها لهم به بها بهم فيه فيها \
    منه منها عليه عليها إليه ذات ذو يا لدي لديك لديه عبر وهو وهي \
    عشان علشان شو ليش ليه وش واش ايش اش كيفاش ازاي ازا لحد اللي ده دي دا \
    هاد هادا هذي هاي يعني طيب وين فين امتى عايز بدي ابغى برضو كمان شي حاجه \
    يقول تقول بيقول بتقول كيقول بيقولي يقولي قال ماكو اكو شنو";

pub const HINDI: &str = "\
    का के की को में से पर है हैं था थे थी थीं हो होता होती होते होना हुआ \
    हुए हुई और या एवं तथा भी तो ही यह वह ये वे इस उस इन उन इसे उसे इसका \
    उसका इसकी उसकी इसके उसके इसमें उसमें एक लिए कि जो जब तब कर करके रहा \
    रहे रही गया गए गई जा जाता जाती जाते क्यों क्या कैसे कौन कहाँ कब इतना \
    इतनी इतने अपना अपने अपनी मैं मेरा मेरे मेरी हम आप आपका आपके आपकी तक \
    द्वारा साथ बाद पहले अगर यदि लेकिन परंतु वाला वाले वाली सकता सकते सकती \
    कोई कुछ सब सभी जैसे ने     ka ke ki ko mein se hai hain tha thi ho hota hoti hote aur bhi toh yeh     woh kya kaise kyun kyon karo kare karein karna karne karke raha rahi     rahe gaya gayi gaye jata jati jaata wala wali wale sakta sakte sakti     baad pehle agar lekin kuch \
    पे pe par me mai h hu hun hoon hua hui hue ye wo jab tab apna apne apni mera meri mere \
    rha rhi rhe";

pub const FRENCH: &str = "\
    le la les l un une des de du d au aux à et ou où en dans sur sous pour \
    par avec sans chez entre vers ce cet cette ces ça cela ceci mon ma mes \
    ton ta tes son sa ses notre nos votre vos leur leurs je j tu il elle \
    on nous vous ils elles me m te t se s lui y ne n que qu qui quoi dont \
    est sont être été était étaient sera avoir a ai as avez avons ont \
    avait c si comme mais donc car alors aussi très tout tous toute toutes \
    même quand pourquoi comment autant lorsque puis";

pub const ENGLISH: &str = "\
    a an and are as at be been but by for from if in into is it its of on \
    or such that the their then there these they this to was were will \
    with my i you your we our do does did so why how what which when can \
    has have had";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_have_no_duplicates_and_no_empty_words() {
        for list in [ARABIC, HINDI, FRENCH, ENGLISH] {
            let words: Vec<&str> = list.split_whitespace().collect();
            let unique: std::collections::HashSet<&str> = words.iter().copied().collect();
            assert_eq!(words.len(), unique.len());
            assert!(words.len() > 40);
        }
    }
}
